"""A local SMTP server for the e-mail alert test (aiosmtpd, set up by scripts/setup-python.sh).

Usage: smtp_server.py MAILBOX [--starttls CERT KEY] [--auth USER:PASSWORD] [--login-only]
Listens on a free loopback port, prints it on the first line, and appends every message it receives to MAILBOX as
one JSON line (from, to, content, its MIME parts as Python's email package decodes them, whether the session was
TLS, the authenticated user). Runs until killed.
"""
import asyncio, email, email.policy, json, signal, socket, ssl, sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    # The test process blocks SIGTERM in its threads and a spawned child inherits the mask: unblocked, the test's
    # terminate() ends this server instead of leaving it running after the suite.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    args = sys.argv[1:]
    mailbox = args.pop(0)
    tls_context = None
    credentials = None
    login_only = False
    while args:
        flag = args.pop(0)
        if flag == "--starttls":
            cert, key = args.pop(0), args.pop(0)
            tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls_context.load_cert_chain(cert, key)
        elif flag == "--auth":
            user, password = args.pop(0).split(":", 1)
            credentials = (user.encode(), password.encode())
        elif flag == "--login-only":
            login_only = True

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            parsed = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
            parts = [{"type": part.get_content_type(), "text": part.get_content()}
                     for part in parsed.walk() if not part.is_multipart()]
            with open(mailbox, "a") as f:
                f.write(json.dumps({
                    "from": envelope.mail_from, "to": envelope.rcpt_tos,
                    "content": envelope.content.decode("utf-8", "replace"), "parts": parts,
                    "tls": session.ssl is not None, "user": getattr(session, "login_data", None) and "ok",
                    "authenticated": bool(getattr(session, "authenticated", False)),
                }) + "\n")
            return "250 OK"

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == credentials
        return AuthResult(success=ok)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    kwargs = {}
    if credentials:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=tls_context is not None)
        if login_only:
            kwargs.update(auth_exclude_mechanism=["PLAIN"])
    if tls_context:
        kwargs.update(tls_context=tls_context, require_starttls=True)
    controller = Controller(Handler(), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    print(port, flush=True)
    try:
        asyncio.get_event_loop().run_forever()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()

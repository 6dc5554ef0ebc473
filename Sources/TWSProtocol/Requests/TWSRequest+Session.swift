/// startApi, reqIds, reqCurrentTime(InMillis), reqManagedAccts (PROTOCOL.md §5.1–5.4).
extension TWSRequest {
    func writeSessionBody(into writer: inout TWSFieldWriter, serverVersion: Int) throws(TWSEncodingError) {
        switch self {
        case .startAPI(let clientID, let capabilities):
            writer.write(2)
            writer.write(clientID)
            writer.write(capabilities)
        case .requestIDs(let count):
            writer.write(1)
            writer.write(count)
        case .currentTime, .managedAccounts:
            writer.write(1)
        case .currentTimeInMillis:
            guard serverVersion >= TWSServerVersion.currentTimeInMillis else {
                throw .unsupportedServerVersion(message: messageName, required: TWSServerVersion.currentTimeInMillis,
                                                actual: serverVersion)
            }
        default:
            break
        }
    }

    static func decodeSession(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSRequest {
        switch id {
        case 71:
            try skipVersion(&reader)
            let clientID = try reader.readRequiredInt("clientId")
            return .startAPI(clientID: clientID, optionalCapabilities: try reader.readString("optionalCapabilities"))
        case 8:
            try skipVersion(&reader)
            return .requestIDs(count: try reader.readInt("numIds"))
        case 49:
            try skipVersion(&reader)
            return .currentTime
        case 105:
            guard serverVersion >= TWSServerVersion.currentTimeInMillis else {
                throw .unsupportedServerVersion(message: reader.message, required: TWSServerVersion.currentTimeInMillis,
                                                actual: serverVersion)
            }
            return .currentTimeInMillis
        default:
            try skipVersion(&reader)
            return .managedAccounts
        }
    }
}

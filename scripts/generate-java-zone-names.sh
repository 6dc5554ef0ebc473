#!/usr/bin/env bash
# Regenerates Sources/TWSProtocol/TimeZones/CLDRJavaZoneNames.swift, the table of the English long zone names Java
# writes (`Central European Standard Time`, `British Summer Time`) and the IANA zone each means, from the Unicode
# CLDR. TWS is a Java program; since JDK 9 Java takes its zone display names from CLDR, so a TWS writes its login's
# zone as CLDR's English name of the zone's metazone (docs/tws-compatibility.md, "Time zones").
#
# Sources:
#   - common/supplemental/metaZones.xml: each metazone's golden zone (its mapZone with territory="001");
#   - common/main/en.xml: the <timeZoneNames> long names (generic, standard, daylight) of each metazone, and of the
#     few zones with names of their own (Europe/London's `British Summer Time`, Etc/UTC's `Coordinated Universal
#     Time`); a metazone's names mean its golden zone, a zone's names that zone;
#   - optionally further English locales (en_001.xml, en_AU.xml, en_CA.xml, en_GB.xml, en_IN.xml): a Java whose
#     locale is en_AU writes `Australian Eastern Time`. Their names are added after en.xml's.
# A name is kept with its first meaning, in the order: the files as given, zones before metazones (en.xml's own
# order), metazones alphabetically; a name CLDR gives a second meaning is listed in a comment at the end of the table.
# CLDR's inheritance marker `↑↑↑` is not a name and is skipped.
#
# Usage: scripts/generate-java-zone-names.sh <metaZones.xml> "<where they came from>" <en.xml> [<en_XX.xml> ...]
#   e.g. scripts/generate-java-zone-names.sh ~/cldr/common/supplemental/metaZones.xml "unicode-org/cldr release-46" \
#        ~/cldr/common/main/{en,en_001,en_AU,en_CA,en_GB,en_IN}.xml
# Then run the tests: JavaZoneNameTests checks that every zone of the table is known to Foundation here, and which
# names it shares with the Windows table (TWSTimeZoneName.windowsNamesJavaReadsOtherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
usage='usage: scripts/generate-java-zone-names.sh <metaZones.xml> "<where they came from>" <en.xml> [<en_XX.xml> ...]'
metazones=${1:?$usage}
source_text=${2:?say where the XML came from (repository, release or commit)}
shift 2
[ "$#" -ge 1 ] || { echo "$usage" >&2; exit 1; }
out=Sources/TWSProtocol/TimeZones/CLDRJavaZoneNames.swift

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# metazone<TAB>golden zone, from the territory="001" mapZone rows.
awk '
    /<mapZone / && /territory="001"/ {
        match($0, /other="[^"]*"/); name = substr($0, RSTART + 7, RLENGTH - 8)
        match($0, /type="[^"]*"/); zone = substr($0, RSTART + 6, RLENGTH - 7)
        print name "\t" zone
    }
' "$metazones" > "$tmp/golden"
golden_count=$(grep -c . "$tmp/golden" || true)
[ "$golden_count" -gt 100 ] || { echo "only $golden_count golden zones read from $metazones: is it CLDR's metaZones.xml?" >&2; exit 1; }

# name<TAB>metazone or zone<TAB>its id<TAB>generic, standard or daylight<TAB>locale, for every long name, in order.
for file in "$@"; do
    awk -v locale="$(basename "$file" .xml)" '
        /<timeZoneNames>/ { inside = 1 }
        /<\/timeZoneNames>/ { inside = 0 }
        !inside { next }
        /<metazone type="/ { match($0, /type="[^"]*"/); owner = substr($0, RSTART + 6, RLENGTH - 7); kind = "metazone" }
        /<zone type="/ { match($0, /type="[^"]*"/); owner = substr($0, RSTART + 6, RLENGTH - 7); kind = "zone" }
        /<long>/ { long = 1 }
        /<\/long>/ { long = 0 }
        long && match($0, /<(generic|standard|daylight)>[^<]*</) {
            element = substr($0, RSTART + 1, RLENGTH - 2)
            tag = substr(element, 1, index(element, ">") - 1)
            text = substr(element, index(element, ">") + 1)
            if (text == "↑↑↑" || text == "") next
            gsub(/&amp;/, "\\&", text); gsub(/&lt;/, "<", text); gsub(/&gt;/, ">", text)
            gsub(/&quot;/, "\"", text); gsub(/&apos;/, "\047", text)
            print text "\t" kind "\t" owner "\t" tag "\t" locale
        }
    ' "$file"
done > "$tmp/names"

rows=$(awk -F '\t' '
    FNR == NR { golden[$1] = $2; next }
    {
        text = $1; kind = $2; owner = $3; tag = $4; locale = $5
        zone = kind == "zone" ? owner : golden[owner]
        if (zone == "") { missing = missing "\n        //   " text " (" owner ", " locale "): no golden zone"; next }
        key = tolower(text)
        what = (kind == "zone" ? "zone " : "") owner " " tag (locale == "en" ? "" : ", " locale)
        if (key in seen) {
            if (seen[key] != zone) shared = shared "\n        //   \"" text "\": also " what " (" zone ")"
            next
        }
        seen[key] = zone
        escaped = text; gsub(/\\/, "\\\\", escaped); gsub(/"/, "\\\"", escaped)
        printf "        (\"%s\", \"%s\"),  // %s\n", escaped, zone, what
    }
    END {
        if (shared != "") printf "        // Names with a second meaning in CLDR, kept with their first:%s\n", shared
        if (missing != "") printf "        // Names of a metazone without a golden zone, left out:%s\n", missing
    }
' "$tmp/golden" "$tmp/names")
count=$(printf '%s\n' "$rows" | grep -c '^        (')
[ "$count" -gt 300 ] || { echo "only $count names read from $*: are they CLDR's en*.xml?" >&2; exit 1; }
locales=$(for file in "$@"; do basename "$file" .xml; done | paste -sd, -)
if [ "$#" -gt 1 ]; then files="common/main/{$locales}.xml"; else files="common/main/$locales.xml"; fi

# The CLDR licence, quoted in full in every generated file as it asks (one copy: scripts/cldr-license.txt).
license=$(cat scripts/cldr-license.txt)

cat > "$out" <<EOF
// Generated by scripts/generate-java-zone-names.sh: do not edit by hand; run the script on a newer CLDR to refresh it.
//
// Source: the Unicode Common Locale Data Repository (CLDR), common/supplemental/metaZones.xml and
// ${files},
// ${source_text};
// the long zone names (generic, standard, daylight) of those locales' <timeZoneNames>, each with the golden zone
// (territory="001") of its metazone, or with its own zone for a zone's own name.
//
// The data is Unicode's, used under its licence (the CLDR repository's LICENSE, quoted in full as it asks):
//
${license}

extension TWSTimeZoneName {
    /// CLDR's English long zone names, the names Java (TWS's runtime) writes since JDK 9, each with the zone it
    /// means (${count} names, with the metazone or zone and the kind of name as a comment): a metazone's names
    /// mean the metazone's golden zone (\`Central European Standard Time\`, \`… Summer Time\` and \`… Time\` mean
    /// Europe/Paris), a zone's own names that zone (\`British Summer Time\`: Europe/London).
    /// Source and licence: this file's header; refreshed by \`scripts/generate-java-zone-names.sh\`.
    public static let javaZoneNames: [(name: String, iana: String)] = [
${rows}
    ]
}
EOF
echo "wrote $out: $count names"

import Foundation
import Testing
import TraderConfig

/// docs/configuration.md is generated from the schema, and every config shown in docs/ and examples/ is valid.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReferenceIsNotStale() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let generated = ConfigDocumentation.markdown(catalog: .builtIn)
        #expect(
            file == generated,
            "docs/configuration.md is stale: swift run ibtrader config docs > docs/configuration.md")
    }

    /// Every config (`.yaml`/`.json`) in examples/ and deploy/ loads; Kubernetes manifests (`apiVersion:`),
    /// Prometheus's scrape configs (`scrape_configs:`), Grafana dashboards (`"panels"`) and compose files
    /// (`services:`) are not configs.
    @Test(arguments: ["examples", "deploy"])
    func everyExampleFileIsValid(folderName: String) throws {
        let folder = Self.root.appendingPathComponent(folderName)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }.sorted()
        var checked = 0
        for name in files {
            let path = folder.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard !text.contains("apiVersion:"), !text.contains("scrape_configs:"), !text.contains("\"panels\""),
                !text.contains("\nservices:")
            else { continue }
            checked += 1
            #expect(throws: Never.self, "\(folderName)/\(name)") { _ = try ConfigLoader.load(ConfigSources(files: [path])) }
        }
        #expect(checked > 0)
    }

    /// deploy/docker-compose.yml sets the bot's keys through the environment: each variable names a key, its value
    /// is allowed, and together with the paper example they point the bot at the gateway's container.
    @Test func theComposeFilesVariablesAreConfigKeys() throws {
        let compose = try String(contentsOf: Self.root.appendingPathComponent("deploy/docker-compose.yml"), encoding: .utf8)
        let variable = try Regex(##"^\s+(IBTRADER_[A-Z_]+):\s*"?([^"#]*?)"?\s*(#.*)?$"##)
        var environment: [String: String] = [:]
        for line in compose.split(separator: "\n") {
            guard let match = try variable.wholeMatch(in: String(line)),
                let name = match.output[1].substring, let value = match.output[2].substring
            else { continue }
            // `${NAME:-default}` is compose's interpolation: the default is what the bot gets unless .env sets NAME.
            let text = String(value)
            if text.hasPrefix("${"), text.hasSuffix("}"), let dash = text.range(of: ":-") {
                environment[String(name)] = String(text[dash.upperBound..<text.index(before: text.endIndex)])
            } else {
                environment[String(name)] = text
            }
        }
        #expect(environment.count >= 6, "\(environment)")
        var sources = ConfigSources(files: [Self.root.appendingPathComponent("examples/momentum-paper.yaml").path], environment: environment)
        sources.readsDotEnv = false
        let settings = try ConfigLoader.load(sources).settings
        #expect(settings.connection.host == "ib-gateway" && settings.connection.port == 4004)
        #expect(settings.dashboard.bind == "0.0.0.0")
        #expect(settings.logging.file?.hasSuffix("ibtrader.log") == true)
        #expect(settings.logging.maxSize == 20_000_000 && settings.logging.keep == 10)
    }

    /// Every ```yaml block in the docs is a config and loads, except Kubernetes manifests (`apiVersion:`).
    @Test func everyConfigInTheDocsIsValid() throws {
        let folder = Self.root.appendingPathComponent("docs")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".md") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for (line, block) in Self.yamlBlocks(text) where !block.contains("apiVersion:") {
                checked += 1
                var sources = ConfigSources()
                sources.embedded = (block, "docs/\(name) (block at line \(line))")
                #expect(throws: Never.self, "docs/\(name):\(line)") { _ = try ConfigLoader.load(sources) }
            }
        }
        #expect(checked >= 2)
    }

    @Test(arguments: StrategyCatalog.builtIn.names)
    func theTemplateOfEveryStrategyIsValid(strategy: String) throws {
        var sources = ConfigSources()
        sources.embedded = (ConfigTemplate.render(strategy: strategy, catalog: .builtIn), "template.yaml")
        let loaded = try ConfigLoader.load(sources)
        #expect(loaded.settings.strategy.name == strategy)
        try loaded.settings.checkRunnable(record: loaded.record)
    }

    /// The ```yaml fenced blocks of a Markdown text (indented ones too) with their first line.
    static func yamlBlocks(_ text: String) -> [(line: Int, text: String)] {
        var blocks: [(Int, String)] = []
        var current: (line: Int, indent: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if var block = current {
                if trimmed.hasPrefix("```") {
                    blocks.append((block.line, block.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    block.lines.append(String(line.dropFirst(min(indent, block.indent))))
                    current = block
                }
            } else if trimmed.hasPrefix("```yaml") {
                current = (index + 2, indent, [])
            }
        }
        return blocks
    }
}

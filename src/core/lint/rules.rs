//! The rules, each with its severity and its source. A rule is here only when its source says it:
//! the MCP specification (2025-11-25, the newest legacy version, and its schema), SEP-1865 for
//! MCP Apps, or a host's own documentation.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks a MUST of the specification: clients may refuse it.
    Error,
    /// Breaks a SHOULD, or a host's documented limit: some clients refuse or rewrite it.
    Warning,
    /// Worth knowing; nothing is refused.
    Info,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    pub source: &'static str,
}

const SPEC_SCHEMA: &str = "https://modelcontextprotocol.io/specification/2025-11-25/schema#tool";
const SPEC_JSON_SCHEMA: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage";
const GEMINI_CLI: &str =
    "https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md#discovery-process-deep-dive";
const APPS: &str = "MCP Apps (SEP-1865, 2026-01-26), Resource Discovery: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx";
const APPS_FORMAT: &str = "MCP Apps (SEP-1865, 2026-01-26), UI Resource Format: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx";
const SERVER_CARD_SCHEMA: &str = "MCP Server Cards (SEP-2127, the experimental server-card extension), schema.json: https://github.com/modelcontextprotocol/experimental-ext-server-card/blob/main/schema.json";
const SERVER_CARD_RUNTIME: &str = "MCP Server Cards, Consistency with Runtime Behavior: https://github.com/modelcontextprotocol/experimental-ext-server-card/blob/main/docs/discovery.md#consistency-with-runtime-behavior";
const OPENAI_TOOLS: &str = "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools (tools: \"A max of 128 functions are supported\")";
const REGISTRY: &str = "MCP Registry, server.json schema 2025-09-29: https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/server.schema.json";
const OPENAI_FUNCTIONS: &str =
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools (tools[].function.name)";

pub const RULES: &[Rule] = &[
    Rule {
        id: "tool-name/length",
        severity: Severity::Warning,
        summary: "tool names SHOULD be 1 to 128 characters (SEP-986)",
        source: "MCP 2025-11-25, Tools › Tool names: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    },
    Rule {
        id: "tool-name/characters",
        severity: Severity::Warning,
        summary: "tool names SHOULD use only A-Z a-z 0-9 _ - . (SEP-986)",
        source: "MCP 2025-11-25, Tools › Tool names: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    },
    Rule {
        id: "tool-name/unique",
        severity: Severity::Error,
        summary: "tool names SHOULD be unique within a server; clients call tools by name",
        source: "MCP 2025-11-25, Tools › Tool names: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    },
    Rule {
        id: "input-schema/object",
        severity: Severity::Error,
        summary: "inputSchema is required and its type is \"object\"",
        source: SPEC_SCHEMA,
    },
    Rule {
        id: "output-schema/object",
        severity: Severity::Error,
        summary: "outputSchema, when given, has type \"object\"",
        source: SPEC_SCHEMA,
    },
    Rule {
        id: "schema/dialect",
        severity: Severity::Info,
        summary: "a $schema other than 2020-12 is allowed, but implementations need support only 2020-12 and MUST refuse a dialect they do not support",
        source: SPEC_JSON_SCHEMA,
    },
    Rule {
        id: "schema/draft-keyword",
        severity: Severity::Warning,
        summary: "a keyword of another draft in a schema read as 2020-12 (the default dialect), where it means nothing",
        source: SPEC_JSON_SCHEMA,
    },
    Rule {
        id: "schema/remote-ref",
        severity: Severity::Warning,
        summary: "a $ref outside the document: clients do not fetch schemas, so the reference cannot be resolved",
        source: SPEC_JSON_SCHEMA,
    },
    Rule {
        id: "schema/invalid",
        severity: Severity::Error,
        summary: "schemas MUST be valid according to their declared or default dialect",
        source: SPEC_JSON_SCHEMA,
    },
    Rule {
        id: "annotations/contradiction",
        severity: Severity::Warning,
        summary: "destructiveHint (and idempotentHint) mean something only when readOnlyHint is false",
        source: "MCP 2025-11-25 schema, ToolAnnotations: https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations",
    },
    Rule {
        id: "result/output-schema",
        severity: Severity::Error,
        summary: "a tool with an outputSchema MUST return structuredContent that conforms to it",
        source: "MCP 2025-11-25, Tools › Output schema: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema",
    },
    Rule {
        id: "result/tool-error-as-rpc-error",
        severity: Severity::Info,
        summary: "a failure of a tool's own run is reported in the result with isError, so the model sees it; JSON-RPC errors are for protocol errors (unknown tool, malformed request)",
        source: "MCP 2025-11-25, Tools › Error handling: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling",
    },
    Rule {
        id: "list/repeated-cursor",
        severity: Severity::Error,
        summary: "a nextCursor that was already given: a client following it loops",
        source: "MCP 2025-11-25, Pagination: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination",
    },
    Rule {
        id: "list-changed/never-sent",
        severity: Severity::Info,
        summary: "tools.listChanged declared, and no notifications/tools/list_changed in the recorded session (fine if the list never changed)",
        source: "MCP 2025-11-25, Tools › List changed notification: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification",
    },
    Rule {
        id: "apps/resource-uri",
        severity: Severity::Error,
        summary: "an MCP App's _meta.ui.resourceUri MUST be a ui:// URI",
        source: APPS,
    },
    Rule {
        id: "apps/deprecated-meta",
        severity: Severity::Warning,
        summary: "the flat _meta[\"ui/resourceUri\"] is deprecated: use _meta.ui.resourceUri",
        source: APPS,
    },
    Rule {
        id: "apps/visibility",
        severity: Severity::Error,
        summary: "_meta.ui.visibility holds only \"model\" and \"app\"",
        source: APPS,
    },
    Rule {
        id: "apps/view-missing",
        severity: Severity::Error,
        summary: "the ui:// view a tool declares MUST exist on the server: resources/read of it fails",
        source: APPS,
    },
    Rule {
        id: "apps/view-mime",
        severity: Severity::Error,
        summary: "a view's resources/read content MUST have mimeType text/html;profile=mcp-app",
        source: APPS_FORMAT,
    },
    Rule {
        id: "apps/view-content",
        severity: Severity::Error,
        summary: "a view's content MUST be given as text or as a base64 blob",
        source: APPS_FORMAT,
    },
    Rule {
        id: "apps/meta-type",
        severity: Severity::Error,
        summary: "a view's _meta.ui has the specification's types: csp lists of strings, permissions an object, domain a string, prefersBorder a boolean",
        source: APPS_FORMAT,
    },
    Rule {
        id: "apps/csp-origin",
        severity: Severity::Warning,
        summary: "each _meta.ui.csp entry is an origin (scheme://host[:port], *. subdomains allowed); hosts that build the CSP drop anything that could add sources or directives, and MUST NOT allow undeclared domains",
        source: APPS_FORMAT,
    },
    Rule {
        id: "apps/permissions",
        severity: Severity::Warning,
        summary: "_meta.ui.permissions names camera, microphone, geolocation and clipboardWrite only; hosts ignore other names",
        source: APPS_FORMAT,
    },
    Rule {
        id: "server-json/schema",
        severity: Severity::Error,
        summary: "server.json breaks the MCP Registry's schema (the registry refuses to publish it)",
        source: REGISTRY,
    },
    Rule {
        id: "server-json/schema-version",
        severity: Severity::Info,
        summary: "server.json names another schema version than the one it was checked against (2025-09-29)",
        source: REGISTRY,
    },
    Rule {
        id: "server-json/version",
        severity: Severity::Warning,
        summary: "server.json's version is not the version the server reports (the schema: \"Equivalent of Implementation.version in MCP specification\")",
        source: REGISTRY,
    },
    Rule {
        id: "server-card/schema",
        severity: Severity::Error,
        summary: "the Server Card breaks its schema (the server-card extension's ServerCard)",
        source: SERVER_CARD_SCHEMA,
    },
    Rule {
        id: "server-card/version",
        severity: Severity::Warning,
        summary: "the card's version is not the serverInfo.version the server reports (the card SHOULD NOT contradict runtime values)",
        source: SERVER_CARD_RUNTIME,
    },
    Rule {
        id: "server-card/title",
        severity: Severity::Warning,
        summary: "the card's title is not the serverInfo.title the server reports (the card SHOULD NOT contradict runtime values)",
        source: SERVER_CARD_RUNTIME,
    },
    Rule {
        id: "server-card/protocol",
        severity: Severity::Warning,
        summary: "no protocol version the server speaks is among the card's remotes[].supportedProtocolVersions",
        source: SERVER_CARD_RUNTIME,
    },
    Rule {
        id: "host/gemini-cli/name",
        severity: Severity::Warning,
        summary: "Gemini CLI replaces characters other than letters, digits, _ . - with _ and cuts names over 63 characters: the model sees another name",
        source: GEMINI_CLI,
    },
    Rule {
        id: "host/gemini-cli/schema-stripped",
        severity: Severity::Info,
        summary: "Gemini CLI removes additionalProperties from parameter schemas (and default beside anyOf): the model is not told those constraints",
        source: GEMINI_CLI,
    },
    Rule {
        id: "host/openai/name",
        severity: Severity::Warning,
        summary: "OpenAI function names must be a-z, A-Z, 0-9, _ or -, at most 64 characters: hosts built on OpenAI's API refuse or rename other names",
        source: OPENAI_FUNCTIONS,
    },
    Rule {
        id: "host/openai/tool-count",
        severity: Severity::Warning,
        summary: "more than 128 tools: OpenAI's API takes at most 128 functions in one request (\"A max of 128 functions are supported\"), so hosts built on it leave tools out",
        source: OPENAI_TOOLS,
    },
];

pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rule_is_known_once_with_a_source() {
        let mut ids: Vec<&str> = super::RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), super::RULES.len());
        assert!(super::RULES.iter().all(|r| r.source.contains("https://")));
    }
}

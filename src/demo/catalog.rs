//! The demo server's tool descriptors, written as the JSON a server would send.

use serde_json::{Value, json};

/// Every demo tool, in listing order.
pub fn tools() -> Vec<Value> {
    [discord_channels(), discord_messages(), web(), server(), content()].concat()
}

/// The Discord-like tools that read channels, paged by offset.
fn discord_channels() -> Vec<Value> {
    vec![
        json!({
            "name": "discord_list_channels",
            "title": "List channels",
            "description": "List the channels of a guild, paged by offset and limit (150 channels in all).",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "guild_id": {"type": "string", "description": "Guild to list", "default": "guild-1"},
                    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Index of the first channel"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50, "description": "Channels per page"},
                    "type": {"type": "string", "enum": ["text", "voice"], "description": "Only channels of this type"}
                }
            },
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        }),
        json!({
            "name": "discord_read_channel",
            "title": "Read channel history",
            "description": "Read a channel's messages, newest first, paged with a `before` message-id cursor (230 messages).",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "channel_id": {"type": "string", "description": "Channel to read"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50},
                    "before": {"type": "string", "description": "Return messages older than this message id"}
                },
                "required": ["channel_id"]
            },
            "annotations": {"readOnlyHint": true}
        }),
    ]
}

/// The Discord-like tools that write: send, edit and delete a message (one destructive), and
/// read a user.
fn discord_messages() -> Vec<Value> {
    vec![
        json!({
            "name": "discord_send_message",
            "title": "Send message",
            "description": "Send a message to a channel. Sending to #announcements is refused (permission error).",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "channel_id": {"type": "string", "description": "Channel id or name"},
                    "content": {"type": "string", "minLength": 1, "maxLength": 2000},
                    "reply_to": {"type": "string", "description": "Message id to reply to"},
                    "silent": {"type": "boolean", "default": false}
                },
                "required": ["channel_id", "content"]
            },
            "annotations": {"readOnlyHint": false, "destructiveHint": false}
        }),
        json!({
            "name": "discord_edit_message",
            "title": "Edit message",
            "description": "Edit a message's content.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "channel_id": {"type": "string"},
                    "message_id": {"type": "string"},
                    "content": {"type": "string", "minLength": 1}
                },
                "required": ["channel_id", "message_id", "content"]
            },
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true}
        }),
        json!({
            "name": "discord_delete_message",
            "title": "Delete message",
            "description": "Delete a message. This cannot be undone.",
            "inputSchema": {
                "type": "object",
                "properties": {"channel_id": {"type": "string"}, "message_id": {"type": "string"}},
                "required": ["channel_id", "message_id"]
            },
            "annotations": {"readOnlyHint": false, "destructiveHint": true}
        }),
        json!({
            "name": "discord_get_user_info",
            "title": "Get user info",
            "description": "Get one user by id or username (e.g. `ada0`).",
            "inputSchema": {
                "type": "object",
                "properties": {"user_id": {"type": "string", "description": "User id or username"}},
                "required": ["user_id"]
            },
            "annotations": {"readOnlyHint": true}
        }),
    ]
}

/// Tools that reach the web in a real server: a URL shortener, a shop, a search, the weather.
fn web() -> Vec<Value> {
    vec![
        json!({
            "name": "yourls_shorten_url",
            "title": "Shorten URL",
            "description": "Shorten a URL (YOURLS style: the answer is a JSON string in content[0].text with a status). \
                            Already-short URLs (sho.rt) and the keyword `taken` fail with error codes.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "url": {"type": "string", "format": "uri"},
                    "keyword": {"type": "string", "pattern": "^[a-z0-9-]*$"},
                    "title": {"type": "string"}
                },
                "required": ["url"]
            }
        }),
        json!({
            "name": "shop_search_products",
            "title": "Search products",
            "description": "Search the shop (Agentman style: a small structuredContent for the model, the full products in _meta for the UI), paged by page/pageSize.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "default": "desk"},
                    "page": {"type": "integer", "minimum": 1, "default": 1},
                    "pageSize": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                    "sort": {"type": "string", "enum": ["relevance", "price-asc", "price-desc", "rating"], "default": "relevance"}
                }
            },
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "web_search",
            "title": "Web search",
            "description": "Search the web (demo data), answered JSON-RPC style: {id, result: {searchResults: {...}, success}}.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "maxResults": {"type": "number", "minimum": 1, "maximum": 10, "default": 10}
                },
                "required": ["query"]
            },
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "get_weather",
            "title": "Weather",
            "description": "Current weather for a city, JSON-RPC wrapped: result.weather.data. Unknown cities answer {error: {code: 404}}.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "minLength": 1},
                    "country": {"type": "string", "minLength": 2, "maxLength": 3, "description": "Country code"}
                },
                "required": ["city"]
            },
            "annotations": {"readOnlyHint": true}
        }),
    ]
}

/// Tools about the server itself, the nested person finder and an issue tracker.
fn server() -> Vec<Value> {
    vec![
        json!({
            "name": "mcp_list_tools",
            "title": "List tools (catalog)",
            "description": "A tool whose job is listing tools: answers a tool catalog.",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "server_status",
            "title": "Server status",
            "description": "Status of the demo server, with an outputSchema for its structuredContent.",
            "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": {
                "type": "object",
                "properties": {
                    "status": {"type": "string", "enum": ["ok", "degraded", "down"]},
                    "timestamp": {"type": "string", "format": "date-time"},
                    "toolsCount": {"type": "integer", "minimum": 0},
                    "uptimeSeconds": {"type": "number"}
                },
                "required": ["status", "timestamp", "toolsCount"]
            },
            "annotations": {"readOnlyHint": true}
        }),
        fg_find_persons(),
        json!({
            "name": "list_issues",
            "title": "List issues (GraphQL)",
            "description": "List a repository's issues GraphQL style: data.repository.issues{nodes, pageInfo{hasNextPage, endCursor}}, paged with `after`.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "owner": {"type": "string", "default": "mcplens"},
                    "repo": {"type": "string", "default": "mcplens"},
                    "first": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                    "after": {"type": "string", "description": "endCursor of the previous page"},
                    "states": {"type": "array", "items": {"type": "string", "enum": ["OPEN", "CLOSED"]}, "uniqueItems": true}
                }
            },
            "annotations": {"readOnlyHint": true}
        }),
    ]
}

/// Tools whose results show the envelope's cases: images, resource links, progress, many records, an echo.
fn content() -> Vec<Value> {
    vec![
        json!({
            "name": "get_image",
            "title": "Get image",
            "description": "Answers a 16x16 PNG image content block, with a text caption.",
            "inputSchema": {"type": "object", "properties": {"caption": {"type": "string", "default": "a gradient"}}},
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "get_resources",
            "title": "Get resources",
            "description": "Answers an embedded text resource, a resource link and an audio block.",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "slow_task",
            "title": "Slow task (progress)",
            "description": "Works for steps × delay_ms, sending notifications/progress after each step. Cancellable.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "steps": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 5},
                    "delay_ms": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 500}
                }
            },
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "generate_records",
            "title": "Generate records",
            "description": "Answers `count` records (about 110 bytes each: 100000 is ~11 MB, 1000000 is ~110 MB), paged by offset if `limit` is given.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "count": {"type": "integer", "minimum": 0, "maximum": 5000000, "default": 100},
                    "offset": {"type": "integer", "minimum": 0, "default": 0},
                    "limit": {"type": "integer", "minimum": 1, "description": "Page size; all remaining records if absent"},
                    "as_text": {"type": "boolean", "default": false, "description": "Put the JSON in a text block instead of structuredContent"}
                }
            },
            "annotations": {"readOnlyHint": true}
        }),
        json!({
            "name": "echo",
            "title": "Echo",
            "description": "Echoes its arguments back as structuredContent, exactly as received.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "message": {"type": "string", "default": "hello"},
                    "repeat": {"type": "integer", "minimum": 1, "maximum": 10},
                    "extra": {"type": "object", "additionalProperties": {"type": "string"}}
                }
            },
            "annotations": {"readOnlyHint": true}
        }),
    ]
}

/// Seed 003's person finder: objects nested in arrays through `$defs`/`$ref`, with formats,
/// enums, defaults, `oneOf`, constraints, custom keywords and `additionalProperties: false`.
fn fg_find_persons() -> Value {
    json!({
        "name": "fg_findPersons",
        "title": "Find persons",
        "description": "Find persons based on an array of criteria (a nested schema that clients converting JSON Schema to another type system truncate).",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "queries": {
                    "type": "array",
                    "description": "Each query matches persons; results are the union.",
                    "minItems": 1,
                    "maxItems": 20,
                    "items": {"$ref": "#/$defs/PersonQuery"}
                },
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
                "sort": {"type": "string", "enum": ["relevance", "name", "recent"], "default": "relevance"},
                "include_inactive": {"type": "boolean", "default": false}
            },
            "required": ["queries"],
            "additionalProperties": false,
            "x-fg-version": "2.1",
            "$defs": {
                "PersonQuery": {
                    "type": "object",
                    "properties": {
                        "fg_id": {"type": "string", "format": "uuid", "description": "Exact person id"},
                        "emailExact": {"type": "string", "format": "email"},
                        "name": {
                            "type": "object",
                            "properties": {
                                "first": {"type": "string", "minLength": 1},
                                "last": {"type": "string", "minLength": 1}
                            },
                            "additionalProperties": false
                        },
                        "role": {"type": "string", "enum": ["engineer", "manager", "designer", "analyst"]},
                        "address": {"$ref": "#/$defs/Address"},
                        "match": {
                            "description": "How to match the name",
                            "oneOf": [
                                {"type": "string", "const": "exact", "title": "Exact"},
                                {
                                    "type": "object",
                                    "title": "Fuzzy",
                                    "properties": {"fuzziness": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.3}},
                                    "required": ["fuzziness"]
                                }
                            ]
                        },
                        "reports_to": {"$ref": "#/$defs/PersonQuery", "description": "Recursive: the person's manager matches this query"}
                    },
                    "required": ["fg_id"],
                    "additionalProperties": false,
                    "x-searchable": true
                },
                "Address": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "country": {"type": "string", "pattern": "^[A-Z]{2}$", "examples": ["DE", "JP"]}
                    }
                }
            }
        },
        "annotations": {"readOnlyHint": true}
    })
}

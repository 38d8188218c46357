//! What each demo tool answers: one function per tool, each returning the result JSON in the
//! shape its seed describes.

use serde_json::{Map, Value, json};

use super::data;

pub type Args = Map<String, Value>;

fn arg_u64(args: &Args, key: &str, default: u64) -> u64 {
    args.get(key).and_then(|v| v.as_u64().or_else(|| v.as_f64().map(|f| f.max(0.0) as u64))).unwrap_or(default)
}

fn arg_str<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// A result whose payload is both structuredContent and its JSON text (the spec's advice).
fn structured(payload: Value) -> Value {
    json!({"content": [{"type": "text", "text": payload.to_string()}], "structuredContent": payload})
}

fn text_json(payload: Value) -> Value {
    json!({"content": [{"type": "text", "text": payload.to_string()}]})
}

fn tool_error(payload: Value) -> Value {
    json!({"content": [{"type": "text", "text": payload.to_string()}], "isError": true})
}

pub fn list_channels(args: &Args) -> Value {
    let offset = arg_u64(args, "offset", 0);
    let limit = arg_u64(args, "limit", 50).clamp(1, 100);
    let kind = arg_str(args, "type");
    let all: Vec<Value> =
        (0..data::CHANNEL_COUNT).map(data::channel).filter(|c| kind.is_none_or(|k| c["type"] == k)).collect();
    let total = all.len() as u64;
    let page: Vec<Value> = all.into_iter().skip(offset as usize).take(limit as usize).collect();
    let returned = page.len() as u64;
    let has_more = offset + returned < total;
    structured(json!({
        "guildId": arg_str(args, "guild_id").unwrap_or("guild-1"),
        "channels": page,
        "pagination": {"offset": offset, "limit": limit, "hasMore": has_more, "nextOffset": if has_more { json!(offset + returned) } else { Value::Null }},
        "summary": {"total": total, "returned": returned, "hasMore": has_more}
    }))
}

pub fn read_channel(args: &Args) -> Value {
    let channel = arg_str(args, "channel_id").unwrap_or("general");
    let limit = arg_u64(args, "limit", 50).clamp(1, 100);
    // Newest first: start just below the `before` message, or at the newest.
    let start = match arg_str(args, "before") {
        Some(b) => match data::message_index(b) {
            Some(i) => i,
            None => {
                return tool_error(
                    json!({"error": {"code": "INVALID_CURSOR", "message": format!("`before` is not a message id of this channel: {b}")}}),
                );
            }
        },
        None => data::MESSAGE_COUNT,
    };
    let end = start.saturating_sub(limit);
    let messages: Vec<Value> = (end..start).rev().map(|i| data::message(channel, i)).collect();
    let has_more = end > 0;
    text_json(json!({
        "channelId": channel,
        "messages": messages,
        "hasMore": has_more,
        "before": if has_more { json!(data::message_id(end)) } else { Value::Null },
    }))
}

pub fn send_message(args: &Args) -> Value {
    let channel = arg_str(args, "channel_id").unwrap_or("");
    if channel == "announcements" || channel == "1100000000000119133" {
        return tool_error(json!({
            "status": "error",
            "error": {"code": "PERMISSION_DENIED", "message": "You do not have permission to send messages in this channel", "details": {"channel": channel, "required": "SEND_MESSAGES"}}
        }));
    }
    structured(json!({
        "status": "success",
        "message": "Message sent successfully",
        "data": {"messageId": data::message_id(data::MESSAGE_COUNT + 1), "channelId": channel, "timestamp": data::timestamp(data::MESSAGE_COUNT * 3 + 5), "content": arg_str(args, "content").unwrap_or("")}
    }))
}

pub fn edit_message(args: &Args) -> Value {
    structured(json!({
        "status": "success",
        "message": "Message edited",
        "data": {"messageId": arg_str(args, "message_id"), "channelId": arg_str(args, "channel_id"), "editedTimestamp": data::timestamp(9999)}
    }))
}

pub fn delete_message(args: &Args) -> Value {
    json!({"content": [{"type": "text", "text": format!("Deleted message {} from channel {}.", arg_str(args, "message_id").unwrap_or("?"), arg_str(args, "channel_id").unwrap_or("?"))}]})
}

pub fn get_user(args: &Args) -> Value {
    let key = arg_str(args, "user_id").unwrap_or("");
    let found = (0..40).map(data::user).find(|u| u["id"] == key || u["username"] == key);
    match found {
        Some(u) => structured(u),
        None => tool_error(json!({"error": {"code": "NOT_FOUND", "message": format!("Unknown user {key}")}})),
    }
}

pub fn shorten_url(args: &Args) -> Value {
    let url = arg_str(args, "url").unwrap_or("");
    if url.contains("sho.rt/") {
        return tool_error(
            json!({"status": "error", "message": "This URL appears to be a shortened URL already.", "code": "error:already_shortened", "originalUrl": url}),
        );
    }
    if arg_str(args, "keyword") == Some("taken") {
        return tool_error(
            json!({"status": "error", "message": "Short URL taken already exists in database or is reserved", "code": "keyword_exists", "keyword": "taken"}),
        );
    }
    let keyword = arg_str(args, "keyword")
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:x}", data::mix(30, url.len() as u64) % 0xfffff));
    text_json(json!({
        "status": "success",
        "shorturl": format!("https://sho.rt/{keyword}"),
        "url": url,
        "title": arg_str(args, "title").unwrap_or("Example"),
        "date": data::timestamp(42)
    }))
}

pub fn search_products(args: &Args) -> Value {
    let query = arg_str(args, "query").unwrap_or("desk");
    let page = arg_u64(args, "page", 1).max(1);
    let size = arg_u64(args, "pageSize", 10).clamp(1, 50);
    let total = data::PRODUCT_COUNT;
    let pages = total.div_ceil(size);
    let products: Vec<Value> = ((page - 1) * size..(page * size).min(total)).map(data::product).collect();
    let prices: Vec<f64> = products.iter().filter_map(|p| p["price"].as_f64()).collect();
    let min = prices.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = prices.iter().cloned().fold(0.0, f64::max);
    let top: Vec<Value> =
        products.iter().take(5).map(|p| json!({"id": p["id"], "title": p["title"], "price": p["price"]})).collect();
    json!({
        "content": [{"type": "text", "text": format!("Found {total} products for \"{query}\"; showing page {page} of {pages}.")}],
        "structuredContent": {
            "totalCount": total,
            "priceRange": {"min": if min.is_finite() { json!(min) } else { Value::Null }, "max": max, "currency": "USD"},
            "topProducts": top,
            "categories": ["Electronics", "Office", "Audio", "Furniture", "Lighting"]
        },
        "_meta": {
            "uiType": "shopify-products",
            "uiMetadata": {"component": "ProductGrid", "version": "2.3.0", "provider": "shopify", "priority": "high", "renderMode": "progressive"},
            "products": products,
            "filters": {
                "categories": ["Electronics", "Office", "Audio", "Furniture", "Lighting"],
                "priceRanges": [{"min": 0, "max": 50, "label": "Under $50"}, {"min": 50, "max": 150, "label": "$50–$150"}, {"min": 150, "max": 10000, "label": "$150+"}],
                "vendors": ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"],
                "tags": ["desk-setup"]
            },
            "sortOptions": [{"value": "relevance", "label": "Relevance", "default": true}, {"value": "price-asc", "label": "Price: low to high"}, {"value": "rating", "label": "Top rated"}],
            "pagination": {"page": page, "pageSize": size, "totalPages": pages, "totalItems": total}
        }
    })
}

pub fn web_search(args: &Args) -> Value {
    let query = arg_str(args, "query").unwrap_or("");
    let n = arg_u64(args, "maxResults", 10).clamp(1, 10);
    let results: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "link": format!("https://example.com/{}/{}", query.replace(' ', "-"), i),
                "title": format!("{query} — result {}", i + 1),
                "source": (["example.com", "docs.example.org", "blog.example.net"][(i % 3) as usize]),
                "snippet": format!("Everything about {query}, part {}.", i + 1),
                "timestamp": data::timestamp(i)
            })
        })
        .collect();
    text_json(json!({
        "id": format!("search-2026-11-01-{:03}", data::mix(31, query.len() as u64) % 1000),
        "result": {
            "searchResults": {"query": query, "totalResults": 1000 + n, "results": results, "timestamp": data::timestamp(0), "source": "Mock Search Results (Demo Mode)"},
            "success": true
        }
    }))
}

pub fn get_weather(args: &Args) -> Value {
    let city = arg_str(args, "city").unwrap_or("");
    let known = ["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "London", "Paris"];
    let Some(i) = known.iter().position(|c| c.eq_ignore_ascii_case(city)) else {
        return text_json(
            json!({"id": "weather-404", "error": {"code": 404, "message": format!("City not found: {city}")}}),
        );
    };
    let i = i as u64;
    text_json(json!({
        "id": format!("weather-{i}"),
        "result": {
            "weather": {
                "data": {
                    "city": known[i as usize],
                    "country": arg_str(args, "country").unwrap_or(["DE", "PT", "JP", "CA", "KE", "GB", "FR"][i as usize]),
                    "temperature": 4.0 + (data::mix(32, i) % 200) as f64 / 10.0,
                    "description": (["clear sky", "light rain", "overcast", "snow"][(data::mix(33, i) % 4) as usize]),
                    "humidity": 40 + data::mix(34, i) % 50,
                    "windSpeed": (data::mix(35, i) % 120) as f64 / 10.0
                },
                "timestamp": data::timestamp(0),
                "source": "Demo Weather"
            },
            "success": true
        }
    }))
}

pub fn list_tools_catalog(tools: &[Value]) -> Value {
    let catalog: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "inputSchema": t["inputSchema"]}))
        .collect();
    text_json(json!({"tools": catalog, "count": tools.len()}))
}

pub fn server_status(tool_count: usize, uptime: f64) -> Value {
    structured(
        json!({"status": "ok", "timestamp": data::timestamp(0), "toolsCount": tool_count, "uptimeSeconds": (uptime * 1000.0).round() / 1000.0}),
    )
}

pub fn find_persons(args: &Args) -> Value {
    let limit = arg_u64(args, "limit", 10).clamp(1, 100) as usize;
    let include_inactive = args.get("include_inactive").and_then(Value::as_bool).unwrap_or(false);
    let queries = args.get("queries").and_then(Value::as_array).cloned().unwrap_or_default();
    let people: Vec<Value> = (0..60).map(data::person).collect();
    let matches = |p: &Value, q: &Value| -> bool {
        let eq = |a: &Value, b: Option<&Value>| {
            b.is_none_or(|b| a.as_str().map(str::to_lowercase) == b.as_str().map(str::to_lowercase))
        };
        let by_id = q.get("fg_id").and_then(Value::as_str).is_none_or(|id| id == "*" || p["fg_id"] == id);
        by_id
            && eq(&p["email"], q.get("emailExact"))
            && eq(&p["role"], q.get("role"))
            && eq(&p["name"]["first"], q.get("name").and_then(|n| n.get("first")))
            && eq(&p["name"]["last"], q.get("name").and_then(|n| n.get("last")))
            && eq(&p["address"]["city"], q.get("address").and_then(|a| a.get("city")))
            && eq(&p["address"]["country"], q.get("address").and_then(|a| a.get("country")))
    };
    let found: Vec<Value> = people
        .into_iter()
        .filter(|p| include_inactive || p["active"] == true)
        .filter(|p| queries.iter().any(|q| matches(p, q)))
        .take(limit)
        .collect();
    structured(
        json!({"persons": found.clone(), "count": found.len(), "queriesReceived": queries, "argumentsReceived": Value::Object(args.clone())}),
    )
}

pub fn list_issues(args: &Args) -> Value {
    let first = arg_u64(args, "first", 20).clamp(1, 100);
    let states: Vec<String> = args
        .get("states")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let all: Vec<Value> = (0..data::ISSUE_COUNT)
        .map(data::issue)
        .filter(|i| states.is_empty() || states.iter().any(|s| i["state"] == s.as_str()))
        .collect();
    // Cursors are opaque: base-16 of "cursor:N", like GitHub's base64 cursors.
    let start = arg_str(args, "after")
        .and_then(|c| {
            let bytes = (0..c.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(c.get(i..i + 2)?, 16).ok())
                .collect::<Option<Vec<u8>>>()?;
            String::from_utf8(bytes).ok()?.strip_prefix("cursor:")?.parse::<usize>().ok()
        })
        .map_or(0, |n| n + 1);
    let page: Vec<Value> = all.iter().skip(start).take(first as usize).cloned().collect();
    let end = start + page.len();
    let cursor = |n: usize| format!("cursor:{n}").bytes().map(|b| format!("{b:02x}")).collect::<String>();
    text_json(json!({
        "data": {
            "repository": {
                "nameWithOwner": format!("{}/{}", arg_str(args, "owner").unwrap_or("mcplens"), arg_str(args, "repo").unwrap_or("mcplens")),
                "issues": {
                    "totalCount": all.len(),
                    "nodes": page,
                    "pageInfo": {"hasNextPage": end < all.len(), "endCursor": if end > start { json!(cursor(end - 1)) } else { Value::Null }}
                }
            }
        }
    }))
}

pub const PNG_16: &str = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAABlklEQVR42g3LQQEAIQgAQSMQwQhEIIIRjEAEIhjBCETguU8jGMEId/Of1hrS6A1tWGM0ZsMb0ViN3chGNU7jNl6jNUGELqhgwhCm4EIIS9hCCiUc4QpP/tCRTu9oxzqjMzveic7q7E52qnM6t/P6HxRRuqKKKUOZiiuhLGUrqZRylKs8/YMhRjfUMGMY03AjjGVsI40yjnGNZ38YyKAPdGCDMZgDH8RgDfYgBzU4gzt44w8TmfSJTmwyJnPik5isyZ7kpCZncidv/sERpzvqmDOc6bgTznK2k045x7nO8z8EEvRAAwtGMAMPIljBDjKo4AQ3ePGHhSz6Qhe2GIu58EUs1mIvclGLs7iLt/6wkU3f6MY2YzM3vonN2uxNbmpzNnfz9h8SSXqiiSUjmYknkaxkJ5lUcpKbvPxDIUUvtLBiFLPwIopV7CKLKk5xi1d/OMihH/Rgh3GYBz/EYR32IQ91OId7eOcPF7n0i17sMi7z4pe4rMu+5KUu53Iv7/7hIY/+0Ic9xmM+/BGP9diPfNTjPO7jPT6GdLgQ8hjYogAAAABJRU5ErkJggg==";

pub fn get_image(args: &Args) -> Value {
    json!({"content": [
        {"type": "image", "data": PNG_16, "mimeType": "image/png", "annotations": {"audience": ["user"], "priority": 0.8}},
        {"type": "text", "text": format!("Caption: {}", arg_str(args, "caption").unwrap_or("a gradient"))}
    ]})
}

pub fn get_resources() -> Value {
    json!({"content": [
        {"type": "resource", "resource": {"uri": "demo://notes/readme.md", "mimeType": "text/markdown", "text": "# Demo notes\n\n- first item\n- second item\n"}},
        {"type": "resource_link", "uri": "demo://files/report.pdf", "name": "report.pdf", "mimeType": "application/pdf", "description": "The quarterly report"},
        // 8 samples of silence, as 8-bit WAV.
        {"type": "audio", "data": "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==", "mimeType": "audio/wav"}
    ]})
}

pub fn generate_records(args: &Args) -> Value {
    let count = arg_u64(args, "count", 100).min(5_000_000);
    let offset = arg_u64(args, "offset", 0).min(count);
    let end = match args.get("limit").and_then(Value::as_u64) {
        Some(limit) => (offset + limit.max(1)).min(count),
        None => count,
    };
    let records: Vec<Value> = (offset..end).map(data::record).collect();
    let has_more = end < count;
    let payload = json!({
        "records": records,
        "offset": offset,
        "total": count,
        "hasMore": has_more,
        "nextOffset": if has_more { json!(end) } else { Value::Null },
    });
    if args.get("as_text").and_then(Value::as_bool).unwrap_or(false) {
        text_json(payload)
    } else {
        json!({"content": [{"type": "text", "text": format!("{} records ({}..{} of {count})", end - offset, offset, end)}], "structuredContent": payload})
    }
}

pub fn echo(args: &Args) -> Value {
    let msg = arg_str(args, "message").unwrap_or("hello");
    let n = arg_u64(args, "repeat", 1).clamp(1, 10) as usize;
    json!({"content": [{"type": "text", "text": vec![msg; n].join(" ")}], "structuredContent": {"arguments": Value::Object(args.clone())}})
}

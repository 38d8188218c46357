//! Deterministic, realistic-looking data for the demo server's tools.
//!
//! Everything is derived from an index through a small hash, so every call, test and screenshot
//! sees the same channels, messages, products and people.

use serde_json::{Value, json};

/// A stable pseudo-random number for (`salt`, `i`).
pub fn mix(salt: u64, i: u64) -> u64 {
    let mut x = salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i.wrapping_add(0x632B_E59B_D9B4_E019);
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

pub fn pick<'a>(items: &'a [&'a str], salt: u64, i: u64) -> &'a str {
    items[(mix(salt, i) % items.len() as u64) as usize]
}

const FIRST: &[&str] = &[
    "Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Alan", "Radia", "Guido", "Hedy",
    "Tim", "Karen", "Brian", "Sophie", "Yukihiro", "Anita", "Bjarne", "Jean",
];
const LAST: &[&str] = &[
    "Lovelace",
    "Hopper",
    "Torvalds",
    "Hamilton",
    "Thompson",
    "Liskov",
    "Ritchie",
    "Allen",
    "Turing",
    "Perlman",
    "van Rossum",
    "Lamarr",
    "Berners-Lee",
    "Spärck Jones",
    "Kernighan",
    "Wilson",
    "Matsumoto",
    "Borg",
    "Stroustrup",
    "Sammet",
];
const TOPICS: &[&str] = &[
    "general",
    "random",
    "help",
    "releases",
    "design",
    "backend",
    "frontend",
    "ops",
    "incidents",
    "hiring",
    "books",
    "music",
    "games",
    "rust",
    "python",
    "security",
    "docs",
    "announcements",
    "feedback",
    "showcase",
];
const WORDS: &[&str] = &[
    "deploy", "looks", "good", "the", "build", "is", "green", "again", "can", "someone", "review", "my", "PR",
    "merged", "thanks", "coffee", "tomorrow", "standup", "moved", "fixed", "flaky", "test", "ship", "it", "today",
];

/// ISO-8601 timestamp `minutes` after 2026-11-01T09:00:00Z (no calendar crate needed).
pub fn timestamp(minutes: u64) -> String {
    let day = 1 + minutes / (24 * 60);
    let h = 9 + (minutes / 60) % 24;
    let (day, h) = if h >= 24 { (day + 1, h - 24) } else { (day, h) };
    let m = minutes % 60;
    // November has 30 days; later timestamps roll into December.
    let (month, day) = if day > 30 { (12, day - 30) } else { (11, day) };
    format!("2026-{month:02}-{day:02}T{h:02}:{m:02}:00Z")
}

pub const CHANNEL_COUNT: u64 = 150;
pub const MESSAGE_COUNT: u64 = 230;
pub const PRODUCT_COUNT: u64 = 87;
pub const ISSUE_COUNT: u64 = 64;

pub fn channel(i: u64) -> Value {
    let topic = TOPICS[(i % TOPICS.len() as u64) as usize];
    let name = if i < TOPICS.len() as u64 { topic.to_string() } else { format!("{topic}-{}", i / TOPICS.len() as u64) };
    let kind = if mix(1, i).is_multiple_of(7) { "voice" } else { "text" };
    json!({
        "id": format!("{}", 1_100_000_000_000_000_000u64 + i * 7919),
        "name": name,
        "type": kind,
        "position": i,
        "topic": format!("Talk about {topic}"),
        "nsfw": false,
        "memberCount": 12 + mix(2, i) % 480,
    })
}

pub fn user(i: u64) -> Value {
    let first = FIRST[(i % FIRST.len() as u64) as usize];
    let last = pick(LAST, 4, i);
    json!({
        "id": format!("{}", 900_000_000_000_000_000u64 + i * 104_729),
        "username": format!("{}{}", first.to_lowercase(), i),
        "displayName": format!("{first} {last}"),
        "discriminator": format!("{:04}", mix(5, i) % 10_000),
        "avatar": format!("https://cdn.example.com/avatars/{i}.png"),
        "bot": i.is_multiple_of(17),
        "createdAt": timestamp(i * 37),
    })
}

/// Message `i` of a channel's history; 0 is the oldest.
pub fn message(channel_id: &str, i: u64) -> Value {
    let n = 4 + mix(6, i) % 9;
    let text: Vec<&str> = (0..n).map(|k| pick(WORDS, 7, i * 31 + k)).collect();
    let author = user(mix(8, i) % 40);
    json!({
        "id": format!("{}", 1_200_000_000_000_000_000u64 + i * 1_000_003),
        "channelId": channel_id,
        "author": {"id": author["id"], "username": author["username"]},
        "content": text.join(" "),
        "timestamp": timestamp(i * 3),
        "reactions": if i.is_multiple_of(5) { json!([{"emoji": "👍", "count": 1 + i % 4}]) } else { json!([]) },
    })
}

pub fn message_id(i: u64) -> String {
    format!("{}", 1_200_000_000_000_000_000u64 + i * 1_000_003)
}

/// The index of a message id, if it is one of ours.
pub fn message_index(id: &str) -> Option<u64> {
    let n: u64 = id.parse().ok()?;
    let off = n.checked_sub(1_200_000_000_000_000_000)?;
    (off % 1_000_003 == 0).then_some(off / 1_000_003)
}

const PRODUCT_KINDS: &[&str] =
    &["Mechanical Keyboard", "USB-C Hub", "Noise-Cancelling Headphones", "Standing Desk", "Monitor Arm", "Desk Lamp"];
const VENDORS: &[&str] = &["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"];
const CATEGORIES: &[&str] = &["Electronics", "Office", "Audio", "Furniture", "Lighting"];

pub fn product(i: u64) -> Value {
    let kind = pick(PRODUCT_KINDS, 9, i);
    let vendor = pick(VENDORS, 10, i);
    let price = 1999 + mix(11, i) % 30_000;
    let price = price as f64 / 100.0;
    json!({
        "id": format!("gid://shopify/Product/{}", 7_000_000 + i),
        "title": format!("{vendor} {kind} {}", ["Pro", "Lite", "Max", "Mini", "Air"][(i % 5) as usize]),
        "description": format!("A {} {kind} from {vendor}, built to last.", ["sturdy", "sleek", "quiet", "compact"][(i % 4) as usize]),
        "price": price,
        "compareAtPrice": if i.is_multiple_of(3) { json!((price * 1.2 * 100.0).round() / 100.0) } else { Value::Null },
        "images": [{"url": format!("https://cdn.example.com/p/{i}/1.jpg"), "alt": kind}],
        "variants": (0..(1 + i % 3)).map(|v| json!({
            "id": format!("gid://shopify/ProductVariant/{}", 80_000_000 + i * 10 + v),
            "title": (["Black", "White", "Silver"][v as usize]),
            "price": price,
            "available": !mix(12, i * 10 + v).is_multiple_of(4),
            "sku": format!("{}-{}-{v}", &vendor[..3].to_uppercase(), 1000 + i),
        })).collect::<Vec<_>>(),
        "vendor": vendor,
        "category": pick(CATEGORIES, 13, i),
        "tags": [pick(CATEGORIES, 13, i).to_lowercase(), "desk-setup"],
        "rating": (30 + mix(14, i) % 21) as f64 / 10.0,
        "reviewCount": mix(15, i) % 900,
    })
}

pub fn person(i: u64) -> Value {
    let first = pick(FIRST, 16, i);
    let last = pick(LAST, 17, i);
    json!({
        "fg_id": format!("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", mix(18, i) as u32, i % 0xffff, i % 0xfff, (i * 7) % 0xfff, mix(19, i) % 0xffff_ffff_ffff),
        "name": {"first": first, "last": last},
        "email": format!("{}.{}@example.org", first.to_lowercase(), last.to_lowercase().replace([' ', 'ä'], "")),
        "role": (["engineer", "manager", "designer", "analyst"][(mix(20, i) % 4) as usize]),
        "address": {"city": (["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi"][(i % 5) as usize]), "country": (["DE", "PT", "JP", "CA", "KE"][(i % 5) as usize])},
        "active": !i.is_multiple_of(6),
    })
}

pub fn issue(i: u64) -> Value {
    let n = i + 1;
    json!({
        "id": format!("I_kwDO{:08X}", mix(21, i) as u32),
        "number": n,
        "title": format!("{} {} when {}", ["Crash", "Panic", "Wrong output", "Slow start", "Typo"][(i % 5) as usize], ["in parser", "on resize", "with unicode", "on empty input"][(i % 4) as usize], ["offline", "paging", "using HTTP", "reconnecting"][(mix(22, i) % 4) as usize]),
        "state": if i.is_multiple_of(3) { "CLOSED" } else { "OPEN" },
        "author": {"login": pick(FIRST, 23, i).to_lowercase()},
        "createdAt": timestamp(i * 97),
        "labels": {"nodes": [{"name": (["bug", "enhancement", "docs"][(i % 3) as usize])}]},
    })
}

/// One synthetic record of the size tool; about 110 bytes of JSON.
pub fn record(i: u64) -> Value {
    json!({
        "id": i,
        "name": format!("{} {}", pick(FIRST, 24, i), pick(LAST, 25, i)),
        "score": mix(26, i) % 1000,
        "active": i.is_multiple_of(2),
        "tags": [pick(TOPICS, 27, i)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_valid_looking() {
        assert_eq!(timestamp(0), "2026-11-01T09:00:00Z");
        assert_eq!(timestamp(61), "2026-11-01T10:01:00Z");
        assert_eq!(timestamp(15 * 60), "2026-11-02T00:00:00Z");
    }

    #[test]
    fn message_ids_round_trip() {
        assert_eq!(message_index(&message_id(42)), Some(42));
        assert_eq!(message_index("not-an-id"), None);
    }
}

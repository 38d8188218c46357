//! The log as JSON Lines: one object per entry, the message itself embedded as JSON when it is
//! JSON, redacted as everything in the log.

use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::{Edit, LogEntry, SessionLog};

/// `entries` (from `log`) as JSON Lines, each with its time, kind, id, method, pairing, latency,
/// level and edit marks (`edited`, `edit_of`: see [`Edit`]), and the whole message (`message`
/// when it is JSON, `text` otherwise). When `message` written out would not be the bytes that
/// went over the wire (spacing, key escapes, `1.0`, big integers), `raw` holds the line as sent
/// too, so a replay (`mcplens replay`) serves those bytes. This is also the format `mcplens
/// record` writes.
pub fn to_json_lines(log: &SessionLog, entries: &[LogEntry]) -> String {
    let mut out = String::new();
    for e in entries {
        let line = serde_json::to_string(&entry_json(log, e)).unwrap_or_default();
        let _ = writeln!(out, "{}", crate::sanitize::json_escaped(&line));
    }
    out
}

fn entry_json(log: &SessionLog, e: &LogEntry) -> Value {
    let mut o = Map::new();
    o.insert("seq".into(), e.seq.into());
    o.insert("time".into(), rfc3339(e.at).into());
    o.insert("kind".into(), e.kind.label().into());
    if let Some(m) = &e.msg {
        let put = |o: &mut Map<String, Value>, k: &str, v: Option<&str>| {
            if let Some(v) = v {
                o.insert(k.into(), v.into());
            }
        };
        put(&mut o, "id", m.id.as_deref());
        put(&mut o, "method", m.method.as_deref());
        put(&mut o, "level", m.level.map(|l| l.label()));
        put(&mut o, "logger", m.logger.as_deref());
        if let Some(r) = m.reply_to {
            o.insert("reply_to".into(), r.into());
        }
        if let Some(l) = m.latency {
            o.insert("latency_ms".into(), (l.as_secs_f64() * 1000.0).into());
        }
        match m.edit {
            Some(Edit::Original) => o.insert("edited".into(), true.into()),
            Some(Edit::Of(original)) => o.insert("edit_of".into(), original.into()),
            None => None,
        };
    }
    let whole = log.whole(e);
    match e.msg.as_ref().and_then(|_| serde_json::from_str::<Value>(&whole).ok()) {
        Some(v) => {
            // Only when needed: most servers write compact JSON, which `message` reproduces.
            if serde_json::to_string(&v).ok().as_deref() != Some(whole.as_ref()) {
                o.insert("raw".into(), whole.as_ref().into());
            }
            o.insert("message".into(), v)
        }
        None => o.insert("text".into(), whole.as_ref().into()),
    };
    Value::Object(o)
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` without a calendar crate (days to civil date: H. Hinnant's).
fn rfc3339(at: SystemTime) -> String {
    let ms = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let s = rem / 1000;
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z", s / 3600, (s / 60) % 60, s % 60, rem % 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = UNIX_EPOCH + Duration::from_millis(1_795_391_765_123);
        assert_eq!(rfc3339(at), "2026-11-22T23:56:05.123Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(leap), "2000-02-29T00:00:00.000Z");
    }
}

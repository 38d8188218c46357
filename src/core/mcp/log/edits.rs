//! Messages edited at a breakpoint (`mcplens proxy`): both are logged, the message as its side
//! sent it and the edit the other side got, each marked, so the log shows what each side saw.

use super::{Edit, SessionLog};

impl SessionLog {
    /// Marks entry `seq` as a message edited at a breakpoint before it reached the other side.
    pub fn mark_edited(&self, seq: u64) {
        let mut st = self.lock();
        if let Some(m) = st.get_mut(seq).and_then(|e| e.msg.as_mut()) {
            m.edit = Some(Edit::Original);
        }
    }

    /// Marks entry `seq` as the edit sent in place of entry `original`. An edited reply (with its
    /// original's id) is the one its request was answered with: it takes the original's pairing,
    /// timed from the request to the edit.
    pub fn mark_edit_of(&self, seq: u64, original: u64) {
        let mut st = self.lock();
        let Some(first) = st.get_mut(original).map(|e| (e.at, e.msg.clone())) else { return };
        let Some(edit) = st.get_mut(seq) else { return };
        let at = edit.at;
        let Some(m) = edit.msg.as_mut() else { return };
        m.edit = Some(Edit::Of(original));
        let (first_at, Some(first)) = first else { return };
        let Some(request) = first.reply_to.filter(|_| m.is_reply() && m.reply_to.is_none() && m.id == first.id) else {
            return;
        };
        let held = at.duration_since(first_at).unwrap_or_default();
        m.reply_to = Some(request);
        m.method = first.method;
        m.latency = first.latency.map(|l| l.saturating_add(held));
        if let Some(r) = st.get_mut(request).and_then(|e| e.msg.as_mut()) {
            r.reply = Some(seq);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{LogKind, LogLimits, Redactor, Wire};
    use super::*;

    fn wire<'a>(id: Option<&'a str>, method: Option<&'a str>) -> Wire<'a> {
        Wire { id, method, ..Wire::default() }
    }

    #[test]
    fn an_edited_reply_answers_the_request_in_its_original_place() {
        let log = SessionLog::new(LogLimits::default(), Redactor::default());
        let req = log.push_message(LogKind::Sent, "{}", &wire(Some("3"), Some("tools/call")));
        let original = log.push_message(LogKind::Received, "{}", &wire(Some("3"), None));
        log.mark_edited(original);
        log.push(LogKind::Info, "edited");
        let edit = log.push_message(LogKind::Received, "{}", &wire(Some("3"), None));
        log.mark_edit_of(edit, original);
        let m = |seq| log.get(seq).and_then(|e| e.msg).unwrap_or_else(|| panic!("no message {seq}"));
        assert_eq!(m(original).edit, Some(Edit::Original));
        let e = m(edit);
        assert_eq!(
            (e.edit, e.reply_to, e.method.as_deref()),
            (Some(Edit::Of(original)), Some(req), Some("tools/call"))
        );
        assert!(e.latency >= m(original).latency);
        assert_eq!(m(req).reply, Some(edit));
        // An edit to another id answers nothing.
        let other = log.push_message(LogKind::Received, "{}", &wire(Some("4"), None));
        log.mark_edit_of(other, original);
        assert_eq!((m(other).edit, m(other).reply_to), (Some(Edit::Of(original)), None));
    }
}

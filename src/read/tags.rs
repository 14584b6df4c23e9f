//! The tag pairs of one game (raw bytes, escapes decoded), in file order.

/// Bytes of tags a reused buffer keeps between games.
const KEPT: usize = 64 << 10;

/// The tag pairs of one game, in file order, in one reused buffer.
#[derive(Debug, Default)]
pub struct Tags {
    bytes: Vec<u8>,
    /// (name start, name end, value end); the value starts at name end.
    spans: Vec<(usize, usize, usize)>,
}

impl Tags {
    /// Forgets all tags, keeping the buffer (unless a game of huge tags
    /// made it large: then it is given back, so that each worker does not
    /// keep megabytes for the rest of the run).
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        if self.bytes.capacity() > KEPT {
            self.bytes.shrink_to(KEPT);
        }
    }

    /// Appends a tag pair.
    pub fn push(&mut self, name: &[u8], value: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let mid = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.spans.push((start, mid, self.bytes.len()));
    }

    /// How many tag pairs.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The pairs in file order, with their index.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &[u8], &[u8])> {
        self.spans.iter().enumerate().map(|(i, &(a, b, c))| {
            (
                i,
                self.bytes.get(a..b).unwrap_or_default(),
                self.bytes.get(b..c).unwrap_or_default(),
            )
        })
    }

    /// Whether every byte of the pairs is ASCII (as in most games): one
    /// test for all of them, where each value would otherwise be checked
    /// for UTF-8 on its own.
    pub fn is_ascii(&self) -> bool {
        self.bytes.is_ascii()
    }

    /// The pairs as text, when they are all ASCII ([`Tags::is_ascii`]).
    pub fn ascii_pairs(&self) -> Option<impl Iterator<Item = (&str, &str)>> {
        let text = std::str::from_utf8(&self.bytes)
            .ok()
            .filter(|_| self.is_ascii())?;
        Some(self.spans.iter().map(move |&(a, b, c)| {
            (
                text.get(a..b).unwrap_or_default(),
                text.get(b..c).unwrap_or_default(),
            )
        }))
    }

    /// The first tag with this name: its index and value.
    pub fn find(&self, name: &str) -> Option<(usize, &[u8])> {
        self.iter()
            .find(|(_, n, _)| *n == name.as_bytes())
            .map(|(i, _, v)| (i, v))
    }

    /// The value of the first tag with this name.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.find(name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_order_and_find_first() {
        let mut tags = Tags::default();
        tags.push(b"White", b"A");
        tags.push(b"Black", b"B");
        tags.push(b"White", b"C");
        assert_eq!(tags.len(), 3);
        assert_eq!(tags.get("White"), Some(&b"A"[..]));
        assert_eq!(tags.find("Black"), Some((1, &b"B"[..])));
        assert_eq!(tags.get("Result"), None);
        tags.clear();
        assert!(tags.is_empty());
    }
}

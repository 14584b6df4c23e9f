//! A bounded list for what can repeat within a game (tag lines that are
//! not tags, wrong check suffixes, variations that cannot be played): the
//! first `MAX_LISTED`, and a count of the rest, so that one game of junk
//! cannot fill memory or bury a report. Every stage that collects such
//! things uses it, from the lexer on.

/// Findings of one kind listed per game at most (tag lines that are not
/// tags, wrong check suffixes: the kinds that can repeat within a game). The
/// rest are counted in one more finding of the same kind, so that one game
/// of junk cannot fill memory or bury a report.
pub const MAX_LISTED: usize = 100;

/// The first `MAX_LISTED` of a kind of thing that can repeat within a game,
/// and how many more there were, with the first of those.
#[derive(Debug, Clone)]
pub struct Listed<T> {
    items: Vec<T>,
    more: usize,
    first_more: Option<T>,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            items: Vec::new(),
            more: 0,
            first_more: None,
        }
    }
}

impl<T> Listed<T> {
    /// Lists an item, or counts it past `MAX_LISTED`.
    pub fn push(&mut self, item: T) {
        if self.items.len() < MAX_LISTED {
            self.items.push(item);
        } else {
            if self.first_more.is_none() {
                self.first_more = Some(item);
            }
            self.more += 1;
        }
    }

    /// Forgets everything, keeping the buffer.
    pub fn clear(&mut self) {
        self.items.clear();
        self.more = 0;
        self.first_more = None;
    }

    /// The items listed, in order.
    pub fn listed(&self) -> &[T] {
        &self.items
    }

    /// How many were not listed, and the first of them; `None` when all
    /// were.
    pub fn unlisted(&self) -> Option<(usize, &T)> {
        self.first_more.as_ref().map(|first| (self.more, first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_keeps_the_first_and_counts_the_rest() {
        let mut listed = Listed::default();
        for i in 0..MAX_LISTED {
            listed.push(i);
        }
        assert_eq!(listed.listed().len(), MAX_LISTED);
        assert_eq!(listed.unlisted(), None);
        for i in MAX_LISTED..MAX_LISTED + 5 {
            listed.push(i);
        }
        assert_eq!(listed.listed().len(), MAX_LISTED);
        assert_eq!(listed.unlisted(), Some((5, &MAX_LISTED)));
        listed.clear();
        assert!(listed.listed().is_empty() && listed.unlisted().is_none());
    }
}

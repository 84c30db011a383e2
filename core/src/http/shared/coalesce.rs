//! [`InFlight`]: identical upstream requests in flight at once become one. The first
//! caller leads and sends; the others follow and get its outcome, answer or error. A
//! leader that is dropped before it finishes (its caller went away) lets its followers
//! go: one of them leads next.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::watch;

/// The requests in flight, by key, each with the channel its outcome comes on.
#[derive(Debug)]
pub(crate) struct InFlight<T> {
    requests: Mutex<HashMap<Arc<str>, watch::Receiver<Option<T>>>>,
}

impl<T> Default for InFlight<T> {
    fn default() -> Self {
        Self {
            requests: Mutex::new(HashMap::new()),
        }
    }
}

/// What a caller of [`InFlight::join`] is.
pub(crate) enum Role<'a, T> {
    /// It sends the request and must [`Leader::finish`] with the outcome.
    Leader(Leader<'a, T>),
    /// Another caller sends it: wait with [`follow`].
    Follower(watch::Receiver<Option<T>>),
}

/// The caller that sends the request for everyone waiting on it.
pub(crate) struct Leader<'a, T> {
    flight: &'a InFlight<T>,
    key: Arc<str>,
    outcome: watch::Sender<Option<T>>,
}

impl<T: Clone> InFlight<T> {
    /// Leads the request `key` if none is in flight, else follows the one that is.
    pub fn join(&self, key: &str) -> Role<'_, T> {
        let mut requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(receiver) = requests.get(key) {
            return Role::Follower(receiver.clone());
        }
        let (outcome, receiver) = watch::channel(None);
        let key: Arc<str> = Arc::from(key);
        requests.insert(Arc::clone(&key), receiver);
        Role::Leader(Leader {
            flight: self,
            key,
            outcome,
        })
    }

    /// Requests in flight now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl<T> Leader<'_, T> {
    /// Gives every follower `outcome`; the request is no longer in flight.
    pub fn finish(self, outcome: T) {
        // The key leaves the map right after (in Drop); a caller that joins in between
        // follows and gets this same outcome at once.
        self.outcome.send_replace(Some(outcome));
    }
}

impl<T> Drop for Leader<'_, T> {
    fn drop(&mut self) {
        self.flight
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

/// Waits for the leader's outcome; `None` when the leader was dropped without one.
pub(crate) async fn follow<T: Clone>(mut receiver: watch::Receiver<Option<T>>) -> Option<T> {
    receiver
        .wait_for(Option::is_some)
        .await
        .ok()
        .and_then(|outcome| outcome.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn followers_get_the_leaders_outcome_and_the_flight_ends() {
        let flight = InFlight::<u32>::default();
        let Role::Leader(leader) = flight.join("GET /a") else {
            panic!("the first caller leads")
        };
        let followers: Vec<_> = (0..3)
            .map(|_| match flight.join("GET /a") {
                Role::Follower(receiver) => tokio::spawn(follow(receiver)),
                Role::Leader(_) => panic!("a second caller follows"),
            })
            .collect();
        assert!(matches!(flight.join("GET /b"), Role::Leader(_)));
        leader.finish(7);
        for follower in followers {
            assert_eq!(follower.await.unwrap(), Some(7));
        }
        assert_eq!(flight.len(), 0);
        assert!(matches!(flight.join("GET /a"), Role::Leader(_)));
    }

    #[tokio::test]
    async fn a_dropped_leader_lets_its_followers_go() {
        let flight = InFlight::<u32>::default();
        let leader = flight.join("GET /a");
        let Role::Follower(receiver) = flight.join("GET /a") else {
            panic!("a second caller follows")
        };
        drop(leader);
        assert_eq!(follow(receiver).await, None);
        assert!(matches!(flight.join("GET /a"), Role::Leader(_)));
    }
}

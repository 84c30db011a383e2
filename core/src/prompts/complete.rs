//! Completions of a prompt's arguments: TfL station names from the station data (offline),
//! Digitransit stops through the geocoder (`geocode_address`: cached, inside the key's
//! budget), loko element ids from the project at `project_path` (`search_elements`: inside
//! `LOKO_ALLOWED_ROOTS`). The live and loko ones run as tool calls of the caller, so every
//! rule of those tools holds for them.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::Toolpack;

/// Most completions in one answer (MCP's limit).
pub const MAX_COMPLETIONS: usize = 100;
/// Fewest characters typed before the geocoder is asked.
pub const MIN_TYPED_FOR_GEOCODER: usize = 2;

/// Where an argument's completions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// TfL station names, from the bundled (or configured) station data.
    TflStation,
    /// Digitransit stops and stations, as `Name (stop id)`, from the geocoder.
    DigitransitStop,
    /// The qualified ids of the elements of the loko project at `project_path`.
    LokoElement,
}

/// Why an argument could not be completed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompletionError {
    /// The source needs another argument first (loko's `project_path`).
    #[error("complete '{0}' first")]
    Needs(&'static str),
    /// The source's tool refused (a path outside `LOKO_ALLOWED_ROOTS`, no key, …).
    #[error("{0}")]
    Refused(String),
}

impl Toolpack {
    /// Up to [`MAX_COMPLETIONS`] values completing `typed` for an argument completed from
    /// `source`; `context` holds the prompt's other arguments.
    pub async fn complete(
        &self,
        source: Source,
        typed: &str,
        context: &BTreeMap<String, String>,
    ) -> Result<Vec<String>, CompletionError> {
        match source {
            Source::TflStation => Ok(self.station_names(typed).await),
            Source::DigitransitStop => self.stops(typed).await,
            Source::LokoElement => {
                let path = context
                    .get("project_path")
                    .map(|p| p.trim())
                    .filter(|p| !p.is_empty())
                    .ok_or(CompletionError::Needs("project_path"))?;
                self.elements(path, typed).await
            }
        }
    }

    #[cfg(feature = "tfl")]
    async fn station_names(&self, typed: &str) -> Vec<String> {
        match crate::tfl::station_data(self).await {
            Ok(data) => crate::tfl::station_names(&data, typed),
            Err(()) => Vec::new(),
        }
    }

    #[cfg(not(feature = "tfl"))]
    async fn station_names(&self, _typed: &str) -> Vec<String> {
        Vec::new()
    }

    async fn stops(&self, typed: &str) -> Result<Vec<String>, CompletionError> {
        let typed = typed.trim();
        if typed.chars().count() < MIN_TYPED_FOR_GEOCODER {
            return Ok(Vec::new());
        }
        let arguments = json!({"text": typed, "layers": ["stop", "station"], "size": 20});
        let body = self.answer("geocode_address", arguments).await?;
        let mut stops: Vec<String> = Vec::new();
        for result in body["results"].as_array().into_iter().flatten() {
            let (Some(name), Some(id)) = (result["name"].as_str(), result["stopId"].as_str())
            else {
                continue;
            };
            let stop = format!("{name} ({id})");
            if !stops.contains(&stop) {
                stops.push(stop);
            }
        }
        Ok(stops)
    }

    async fn elements(&self, path: &str, typed: &str) -> Result<Vec<String>, CompletionError> {
        let query = format!("*{}*", typed.trim());
        let arguments = json!({"project_path": path, "query": query, "limit": MAX_COMPLETIONS});
        let body = self.answer("search_elements", arguments).await?;
        Ok(body["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|element| element["id"].as_str().map(str::to_owned))
            .collect())
    }

    /// The body of a successful call of `tool`, or what it refused with.
    async fn answer(&self, tool: &str, arguments: Value) -> Result<Value, CompletionError> {
        let result = self
            .call_json(tool, arguments)
            .await
            .map_err(|e| CompletionError::Refused(e.to_string()))?;
        if result.is_error() {
            let message = result.body["message"]
                .as_str()
                .or_else(|| result.body["error"]["message"].as_str())
                .unwrap_or("the completion's tool failed");
            return Err(CompletionError::Refused(message.to_owned()));
        }
        Ok(result.body)
    }
}

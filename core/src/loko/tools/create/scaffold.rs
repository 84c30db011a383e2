//! The files a new entity starts with: markdown with YAML frontmatter, and a D2
//! diagram that passes `d2 validate` (quoted colours, no remote icons, text in labels
//! and tooltips rather than `description:` children). Project templates under
//! `.loko/templates/<name>/` replace the built-in ones for systems.

use crate::loko::formats::d2::quote;
use crate::loko::formats::markdown::yaml_string;
use crate::loko::project::model::Level;

/// What a new entity's files say.
#[derive(Debug, Clone, Default)]
pub struct NewEntity {
    /// The id (directory name).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The description, possibly empty.
    pub description: String,
    /// The technology, possibly empty.
    pub technology: String,
    /// The container type (`Database`, `Web Service`…), possibly empty.
    pub kind: String,
    /// Further frontmatter fields (loko v0.3's `responsibilities`, `tags`, …), in order.
    pub extra: Vec<(&'static str, serde_json::Value)>,
}

impl NewEntity {
    /// `text` with `{{id}}`, `{{name}}`, `{{description}}` and `{{technology}}` filled in.
    pub fn fill(&self, text: &str) -> String {
        text.replace("{{id}}", &self.id)
            .replace("{{name}}", &self.name)
            .replace("{{description}}", &self.description)
            .replace("{{technology}}", &self.technology)
    }

    /// The markdown file of a new entity of `level`.
    pub fn markdown(&self, level: Level) -> String {
        let mut front = String::from("---\n");
        if level == Level::Component {
            front.push_str(&format!("id: {}\n", yaml_string(&self.id)));
        }
        front.push_str(&format!("name: {}\n", yaml_string(&self.name)));
        front.push_str(&format!(
            "description: {}\n",
            yaml_string(&self.description)
        ));
        if !self.technology.is_empty() {
            front.push_str(&format!("technology: {}\n", yaml_string(&self.technology)));
        }
        if !self.kind.is_empty() {
            front.push_str(&format!("type: {}\n", yaml_string(&self.kind)));
        }
        front.push_str(&self.extra_frontmatter());
        front.push_str("---\n\n");
        let about = if self.description.is_empty() {
            format!("_Describe this {} here._", level.role())
        } else {
            self.description.clone()
        };
        let section = match level {
            Level::System => "\n## Containers\n\n_Add containers with `create_container`._\n",
            Level::Container => "\n## Components\n\n_Add components with `create_component`._\n",
            Level::Component => "\n## Responsibilities\n\n_List what this component does._\n",
        };
        format!("{front}# {}\n\n{about}\n{section}", self.name)
    }

    /// The [`NewEntity::extra`] fields as frontmatter lines (lists as block sequences,
    /// which loko's own reader understands).
    pub fn extra_frontmatter(&self) -> String {
        self.extra
            .iter()
            .map(|(key, value)| crate::loko::formats::frontmatter_edit::render(key, value))
            .collect()
    }

    /// The D2 diagram of a new entity of `level`.
    pub fn diagram(&self, level: Level) -> String {
        let (title, fill) = match level {
            Level::System => ("C4 Level 1 - System Context View", "#E3F2FD"),
            Level::Container => ("C4 Level 2 - Container View", "#E1F5FE"),
            Level::Component => ("C4 Level 3 - Component View", "#FFF3E0"),
        };
        let label = if self.technology.is_empty() {
            self.name.clone()
        } else {
            format!("{} [{}]", self.name, self.technology)
        };
        let mut shape = format!(
            "# {title}: {}\ndirection: right\n\n{}: {} {{\n",
            self.name.replace('\n', " "),
            self.id,
            quote(&label)
        );
        if let Some(kind) = d2_shape(&self.kind) {
            shape.push_str(&format!("  shape: {kind}\n"));
        }
        shape.push_str(&format!("  style.fill: \"{fill}\"\n"));
        if !self.description.is_empty() {
            shape.push_str(&format!("  tooltip: {}\n", quote(&self.description)));
        }
        shape.push_str("}\n");
        shape
    }
}

/// The D2 shape for a container type: stores are cylinders, queues are queues.
fn d2_shape(kind: &str) -> Option<&'static str> {
    let kind = kind.to_ascii_lowercase();
    if ["database", "db", "store", "storage", "cache"]
        .iter()
        .any(|k| kind.contains(k))
    {
        Some("cylinder")
    } else if ["queue", "topic", "stream", "bus"]
        .iter()
        .any(|k| kind.contains(k))
    {
        Some("queue")
    } else if ["user", "person", "actor"].iter().any(|k| kind.contains(k)) {
        Some("person")
    } else {
        None
    }
}

/// The `loko.toml` written when a system is created in a directory that is not yet a
/// loko project.
pub fn settings_file(project_name: &str) -> String {
    let name = serde_json::Value::String(project_name.to_owned()).to_string();
    format!(
        "[project]\nname = {name}\ndescription = \"\"\nversion = \"0.1.0\"\n\n[paths]\nsource = \"./src\"\noutput = \"./dist\"\n\n[d2]\ntheme = \"neutral-default\"\nlayout = \"elk\"\ncache = true\n\n[outputs]\nhtml = true\nmarkdown = false\npdf = false\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loko::formats::markdown;

    #[test]
    fn markdown_round_trips_every_field() {
        let e = NewEntity {
            id: "api".into(),
            name: "API: \"v2\" #1".into(),
            description: "- handles: requests".into(),
            technology: "Node.js".into(),
            kind: "Web Service".into(),
            extra: vec![
                ("tags", serde_json::json!(["api", "a: b", "- c"])),
                ("framework", serde_json::json!("Express #5")),
            ],
        };
        let doc = markdown::parse(&e.markdown(Level::Component)).unwrap();
        assert_eq!(
            doc.frontmatter["tags"],
            serde_json::json!(["api", "a: b", "- c"])
        );
        assert_eq!(
            doc.frontmatter["framework"],
            serde_json::json!("Express #5")
        );
        assert_eq!(markdown::text(&doc.frontmatter, "name").unwrap(), e.name);
        assert_eq!(
            markdown::text(&doc.frontmatter, "description").unwrap(),
            e.description
        );
        assert_eq!(
            markdown::text(&doc.frontmatter, "technology").unwrap(),
            "Node.js"
        );
        assert_eq!(markdown::text(&doc.frontmatter, "id").unwrap(), "api");
        assert!(doc.body.trim_start().starts_with("# API: \"v2\" #1\n"));
    }

    #[test]
    fn stores_are_cylinders() {
        let e = NewEntity {
            id: "db".into(),
            name: "DB".into(),
            kind: "Database".into(),
            ..Default::default()
        };
        assert!(e.diagram(Level::Container).contains("shape: cylinder"));
        assert!(
            e.diagram(Level::Container)
                .contains("style.fill: \"#E1F5FE\"")
        );
        let settings =
            crate::loko::project::settings::ProjectSettings::parse(&settings_file("a \"b\""), "d")
                .unwrap();
        assert_eq!(settings.name, "a \"b\"");
    }
}

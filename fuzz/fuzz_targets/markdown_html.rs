#![no_main]
toolpack_fuzz::target!("markdown_html");

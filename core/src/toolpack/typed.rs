//! The typed method of every catalog tool on [`Toolpack`], generated from
//! [`with_every_tool!`](crate::with_every_tool): `toolpack.station_toilets(request)` is
//! `toolpack.call::<StationToilets>(request)`. Nothing here is written per tool.

use super::Toolpack;

/// One `pub async fn` per entry of a [`with_every_tool!`](crate::with_every_tool) list,
/// documented from the tool's type.
macro_rules! typed_methods {
    ($($feature:literal $method:ident : $tool:ty, $input:ty => $output:ty;)*) => {
        impl Toolpack {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!(
                    "Calls [`", stringify!($tool), "`] with a typed request: the same as `call::<",
                    stringify!($tool), ">` (rate limits, panic capture, this handle's caller). ",
                    "Its contract name, description and errors are in the tool's `SPEC` and in ",
                    "`docs/tools.md`."
                )]
                pub async fn $method(&self, request: $input) -> <$tool as $crate::Tool>::Output {
                    self.call::<$tool>(request).await
                }
            )*
        }

        /// Each typed method's name beside its tool's contract name, so a test can hold
        /// the method to the snake case of the name.
        #[cfg(test)]
        pub(crate) const METHOD_NAMES: &[(&str, &str)] = &[$(
            #[cfg(feature = $feature)]
            (stringify!($method), <$tool as $crate::Tool>::SPEC.name),
        )*];
    };
}

crate::with_every_tool!(typed_methods);

#[cfg(test)]
mod tests {
    use super::METHOD_NAMES;

    fn snake_case(name: &str) -> String {
        let mut out = String::new();
        for c in name.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    #[test]
    fn every_typed_method_is_named_after_its_tool() {
        assert_eq!(METHOD_NAMES.len(), crate::Catalog::get().entries().len());
        for (method, tool) in METHOD_NAMES {
            assert_eq!(*method, snake_case(tool), "the method of `{tool}`");
        }
    }
}

//! The result views, in the order `v` cycles through them (the number keys pick the first
//! four). A new view is a module here that defines `KIND` (see `super::view::ResultView`) and
//! its name in this list.

use super::view::Kind;

macro_rules! views {
    ($($name:ident),* $(,)?) => {
        $(mod $name;)*
        /// Every view, in cycling order.
        pub static VIEWS: &[Kind] = &[$($name::KIND),*];
    };
}

views![envelope, split, content, raw];

#[cfg(test)]
mod tests {
    use super::super::View;

    /// The names code uses for the built-in views (`View::Split`) are where the list puts them.
    #[test]
    fn built_in_views_are_where_their_names_say() {
        let named =
            [(View::Envelope, "Envelope"), (View::Split, "Split"), (View::Content, "Content"), (View::Raw, "Raw")];
        for (view, name) in named {
            assert!(view.name().starts_with(name), "{} is not {name}", view.name());
        }
        assert_eq!(View::all().count(), super::VIEWS.len());
        assert_eq!(View::Raw.next(), View::Envelope);
    }
}

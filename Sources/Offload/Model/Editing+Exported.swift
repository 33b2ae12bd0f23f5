// The editor (items' roles, placement rules, intents and changes) is a pure module of its
// own so an app can run it over its own storage; `Offload` composes it with the store and
// re-exports it, so callers of `Offload` name `Editor`, `PlacementRules` and `PlacementRole`
// without a second import.
@_exported public import Editing

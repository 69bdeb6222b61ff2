/// How a ``DeepLink`` is put on top of a navigation state (usually one just restored).
///
/// All three select the link's tab and set the split selections and the sheet the link names.
/// They differ in what happens to the link's stack and to what the link does not name:
///
/// | Rule | The link's stack | Sheet the link does not name | Split selections it does not name |
/// |------|------------------|------------------------------|-----------------------------------|
/// | ``push`` | the link's routes are appended | dismissed if the link has routes (it would hide them), else kept | kept |
/// | ``replace`` | becomes the link's routes | dismissed if the link has routes, else kept | kept |
/// | ``switchTabAndReset`` | becomes the link's routes (its root when the link has a tab and no routes) | dismissed | cleared |
///
/// A link without routes changes no stack under ``push`` and ``replace``, nor under
/// ``switchTabAndReset`` unless it names a tab. Other stacks (other tabs), the column visibility
/// and the preferred compact column are never changed by a link.
public enum DeepLinkRule: String, Sendable, Hashable, CaseIterable {
  /// Push the link's routes onto the restored stack: Back returns to where the user was.
  case push
  /// Replace the link's stack with the link's routes: Back returns to the stack's root.
  case replace
  /// Select the link's tab, replace its stack, dismiss any sheet and clear the split selections
  /// the link does not set: the scene shows exactly the link's destination.
  case switchTabAndReset
}

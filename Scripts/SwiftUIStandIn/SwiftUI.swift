// A stand-in for Apple's SwiftUI, for compile checks on Linux only (see README.md beside this file).
// It declares the SwiftUI API that Waypoint's glue and guides use, with Apple's documented
// signatures: names, argument labels, generic constraints, closure shapes (`@escaping`,
// `@Sendable`, `@isolated(any)`, `sending`, `@MainActor`), result builders and isolation. Bodies
// trap: this module is type-checked against, never run. It is never a target of the package.
//
// Each declaration names the page of Apple's documentation it follows. Where the current SDK
// writes a builder parameter as `@ContentBuilder` (a type alias of `ViewBuilder` since Xcode 27),
// the stand-in writes `@ViewBuilder`, the same builder. The stand-in's `ViewBuilder` keeps the
// `View` constraints of its documented `buildBlock` overloads, which is the stricter check.
import Foundation

// MARK: - Views and builders

/// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
  /// https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
  associatedtype Body: View
  /// https://developer.apple.com/documentation/swiftui/view/body-8kl5o
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// Primitive views have no body (SwiftUI declares `Never` a view for them).
/// https://developer.apple.com/documentation/swiftui/never
extension Never: View {
  public typealias Body = Never
  /// https://developer.apple.com/documentation/swiftui/never/body-swift.property
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
  public static func buildBlock() -> EmptyView { EmptyView() }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
  public static func buildBlock<each Content: View>(
    _ content: repeat each Content
  ) -> TupleView<(repeat each Content)> { TupleView((repeat each content)) }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
  public static func buildEither<TrueContent: View, FalseContent: View>(
    first: TrueContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
  public static func buildEither<TrueContent: View, FalseContent: View>(
    second: FalseContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
    AnyView(content)
  }
}

/// https://developer.apple.com/documentation/swiftui/contentbuilder
public typealias ContentBuilder = ViewBuilder

/// https://developer.apple.com/documentation/swiftui/emptyview
@frozen
public struct EmptyView: View {
  /// https://developer.apple.com/documentation/swiftui/emptyview/init()
  nonisolated public init() {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
@frozen
public struct TupleView<T>: View {
  /// https://developer.apple.com/documentation/swiftui/tupleview/init(_:)
  nonisolated public init(_ value: T) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/_conditionalcontent
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/anyview
@frozen
public struct AnyView: View {
  /// https://developer.apple.com/documentation/swiftui/anyview/init(_:)
  nonisolated public init<V: View>(_ view: V) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swift/optional (SwiftUI: `Optional: View`)
extension Optional: View where Wrapped: View {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/group
@frozen
public struct Group<Content> {}

extension Group: View where Content: View {
  /// https://developer.apple.com/documentation/swiftui/group/init(content:)
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier
@MainActor @preconcurrency
public protocol ViewModifier {
  /// https://developer.apple.com/documentation/swiftui/viewmodifier/body
  associatedtype Body: View
  /// https://developer.apple.com/documentation/swiftui/viewmodifier/body(content:)
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
  /// https://developer.apple.com/documentation/swiftui/viewmodifier/content
  typealias Content = _ViewModifier_Content<Self>
}

/// https://developer.apple.com/documentation/swiftui/_viewmodifier_content
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent
@frozen
public struct ModifiedContent<Content, Modifier> {}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {
  /// https://developer.apple.com/documentation/swiftui/dynamicproperty/update()
  mutating func update()
}

extension DynamicProperty {
  public mutating func update() {}
}

// MARK: - State and bindings

/// https://developer.apple.com/documentation/swiftui/binding
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
  @preconcurrency
  public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {}
  /// https://developer.apple.com/documentation/swiftui/binding/init(projectedvalue:)
  public init(projectedValue: Binding<Value>) {}
  /// https://developer.apple.com/documentation/swiftui/binding/constant(_:)
  public static func constant(_ value: Value) -> Binding<Value> {
    fatalError("SwiftUI stand-in: not run")
  }
  /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError("SwiftUI stand-in: not run") }
    nonmutating set {}
  }
  /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
  public var projectedValue: Binding<Value> { self }
  /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
  public subscript<Subject>(
    dynamicMember keyPath: WritableKeyPath<Value, Subject>
  ) -> Binding<Subject> { fatalError("SwiftUI stand-in: not run") }
}

/// "A binding conforms to Sendable only if its wrapped value type also conforms to Sendable."
/// https://developer.apple.com/documentation/swiftui/binding
extension Binding: Sendable where Value: Sendable {}

/// https://developer.apple.com/documentation/swiftui/state
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
  /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
  public init(wrappedValue value: Value) {}
  /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
  public init(initialValue value: Value) {}
  /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError("SwiftUI stand-in: not run") }
    nonmutating set {}
  }
  /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
  public var projectedValue: Binding<Value> { fatalError("SwiftUI stand-in: not run") }
}

extension State where Value: ExpressibleByNilLiteral {
  /// https://developer.apple.com/documentation/swiftui/state/init()
  public init() {}
}

/// https://developer.apple.com/documentation/swiftui/environment
@frozen @propertyWrapper
public struct Environment<Value>: DynamicProperty {
  /// https://developer.apple.com/documentation/swiftui/environment/init(_:)
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
  /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
  public var wrappedValue: Value { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
  /// https://developer.apple.com/documentation/swiftui/environmentvalues/init()
  public init() {}
  /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase
  public var scenePhase: ScenePhase {
    get { fatalError("SwiftUI stand-in: not run") }
    set {}
  }
  /// https://developer.apple.com/documentation/swiftui/environmentvalues/openwindow
  public var openWindow: OpenWindowAction { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/scenephase
public enum ScenePhase: Comparable, Hashable, Sendable {
  /// https://developer.apple.com/documentation/swiftui/scenephase/background
  case background
  /// https://developer.apple.com/documentation/swiftui/scenephase/inactive
  case inactive
  /// https://developer.apple.com/documentation/swiftui/scenephase/active
  case active
}

/// https://developer.apple.com/documentation/swiftui/openwindowaction
@MainActor @preconcurrency
public struct OpenWindowAction {
  /// https://developer.apple.com/documentation/swiftui/openwindowaction/callasfunction(id:)
  @MainActor @preconcurrency public func callAsFunction(id: String) {}
  /// https://developer.apple.com/documentation/swiftui/openwindowaction/callasfunction(value:)
  @MainActor @preconcurrency public func callAsFunction<D: Codable & Hashable>(value: D) {}
  /// https://developer.apple.com/documentation/swiftui/openwindowaction/callasfunction(id:value:)
  @MainActor @preconcurrency
  public func callAsFunction<D: Codable & Hashable>(id: String, value: D) {}
}

/// https://developer.apple.com/documentation/swiftui/scenestorage
@frozen @propertyWrapper
public struct SceneStorage<Value>: DynamicProperty {
  /// https://developer.apple.com/documentation/swiftui/scenestorage/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError("SwiftUI stand-in: not run") }
    nonmutating set {}
  }
  /// https://developer.apple.com/documentation/swiftui/scenestorage/projectedvalue
  public var projectedValue: Binding<Value> { fatalError("SwiftUI stand-in: not run") }
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == Bool {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == Int {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == Double {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == String {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == URL {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String) where Value == Data {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String)
  where Value: RawRepresentable, Value.RawValue == Int {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:)
  public init(wrappedValue: Value, _ key: String)
  where Value: RawRepresentable, Value.RawValue == String {}
}

extension SceneStorage where Value: ExpressibleByNilLiteral {
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == Bool? {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == Int? {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == Double? {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == String? {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == URL? {}
  /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:)
  public init(_ key: String) where Value == Data? {}
}

// MARK: - Observable objects (Combine's, which `import SwiftUI` makes visible)

/// https://developer.apple.com/documentation/combine/observableobject (its publisher left out:
/// nothing checked here subscribes to it)
public protocol ObservableObject: AnyObject {}

/// https://developer.apple.com/documentation/combine/published (its `projectedValue` publisher
/// left out, as above)
@propertyWrapper
public struct Published<Value> {
  /// https://developer.apple.com/documentation/combine/published/init(wrappedvalue:)
  public init(wrappedValue value: Value) { wrappedValue = value }
  /// Combine reaches the value through the enclosing instance; stored here.
  public var wrappedValue: Value
}

// MARK: - Text, images, labels, buttons

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
@frozen
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
  /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(_:)
  public init(_ value: String) {}
  /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
  public init(stringLiteral value: String) {}
  /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
  public init(stringInterpolation: StringInterpolation) {}

  /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation
  public struct StringInterpolation: StringInterpolationProtocol {
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/init(literalcapacity:interpolationcount:)
    public init(literalCapacity: Int, interpolationCount: Int) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendliteral(_:)
    public mutating func appendLiteral(_ literal: String) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)
    public mutating func appendInterpolation(_ string: String) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)-378v9
    public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)-4qyfo
    public mutating func appendInterpolation(_ text: Text) {}
  }
}

/// The numbers a localized string key interpolates with a default format specifier.
/// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)-378v9
public protocol _FormatSpecifiable: Equatable {}
extension Int: _FormatSpecifiable {}
extension Int64: _FormatSpecifiable {}
extension UInt: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
extension Float: _FormatSpecifiable {}

/// https://developer.apple.com/documentation/swiftui/text
@frozen
public struct Text: View, Equatable, Sendable {
  /// https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
  nonisolated public init(verbatim content: String) {}
  /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
  nonisolated public init<S: StringProtocol>(_ content: S) {}
  /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
  nonisolated public init(
    _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil,
    comment: StaticString? = nil
  ) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
  nonisolated public static func == (lhs: Text, rhs: Text) -> Bool { true }
}

/// https://developer.apple.com/documentation/swiftui/image
@frozen
public struct Image: View, Equatable, Sendable {
  /// https://developer.apple.com/documentation/swiftui/image/init(systemname:)
  nonisolated public init(systemName: String) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/label
public struct Label<Title: View, Icon: View>: View {
  /// https://developer.apple.com/documentation/swiftui/label/init(title:icon:)
  nonisolated public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension Label where Title == Text, Icon == Image {
  /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-7bhmb
  nonisolated public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
  /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-4cwdn
  nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

/// https://developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: View {
  /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
  @preconcurrency
  nonisolated public init(
    action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label
  ) {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension Button where Label == Text {
  /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
  @preconcurrency
  nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
  }
  /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
  @preconcurrency
  nonisolated public init<S: StringProtocol>(
    _ title: S, action: @escaping @MainActor () -> Void
  ) {}
}

// MARK: - Collections of views

/// https://developer.apple.com/documentation/swiftui/foreach
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

extension ForEach: View where Content: View {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension ForEach where Content: View {
  /// https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)-90ntu
  nonisolated public init(
    _ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content
  ) where ID == Data.Element.ID, Data.Element: Identifiable {}
  /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
  nonisolated public init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {}
}

/// https://developer.apple.com/documentation/swiftui/list
public struct List<SelectionValue: Hashable, Content: View>: View {
  /// https://developer.apple.com/documentation/swiftui/list/init(selection:content:)-1pisz
  nonisolated public init(
    selection: Binding<SelectionValue?>?, @ViewBuilder content: () -> Content
  ) {}
  /// A single selection over identifiable data.
  /// https://developer.apple.com/documentation/swiftui/list/init(_:selection:rowcontent:)
  nonisolated public init<Data, RowContent>(
    _ data: Data, selection: Binding<SelectionValue?>?,
    @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection,
    RowContent: View, Data.Element: Identifiable
  {}
  /// A single selection over data identified by a key path.
  /// https://developer.apple.com/documentation/swiftui/list/init(_:id:selection:rowcontent:)
  nonisolated public init<Data, ID, RowContent>(
    _ data: Data, id: KeyPath<Data.Element, ID>, selection: Binding<SelectionValue?>?,
    @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable,
    RowContent: View
  {}
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension List where SelectionValue == Never {
  /// https://developer.apple.com/documentation/swiftui/list/init(content:)
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  /// https://developer.apple.com/documentation/swiftui/list/init(_:rowcontent:)-3vn6i
  nonisolated public init<Data, RowContent>(
    _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection,
    RowContent: View, Data.Element: Identifiable
  {}
  /// https://developer.apple.com/documentation/swiftui/list/init(_:id:rowcontent:)-4s0aj
  nonisolated public init<Data, ID, RowContent>(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable,
    RowContent: View
  {}
}

// MARK: - Navigation

/// `Equatable`, not `Sendable`: its documented relationships are `Copyable` and `Equatable` (and
/// its `CodableRepresentation`'s `Decodable`, `Encodable` and `Equatable`).
/// https://developer.apple.com/documentation/swiftui/navigationpath
public struct NavigationPath: Equatable {
  /// https://developer.apple.com/documentation/swiftui/navigationpath/init()
  public init() {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/init(_:)
  public init(_ codable: NavigationPath.CodableRepresentation) {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/init(_:)
  public init<S: Sequence>(_ elements: S) where S.Element: Hashable {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/init(_:)
  public init<S: Sequence>(_ elements: S) where S.Element: Codable & Hashable {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/count
  public var count: Int { 0 }
  /// https://developer.apple.com/documentation/swiftui/navigationpath/isempty
  public var isEmpty: Bool { true }
  /// https://developer.apple.com/documentation/swiftui/navigationpath/codable
  public var codable: NavigationPath.CodableRepresentation? { nil }
  /// Appends through the `Hashable`-only overload: `codable` is then `nil`.
  /// https://developer.apple.com/documentation/swiftui/navigationpath/append(_:)
  public mutating func append<V: Hashable>(_ value: V) {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/append(_:)
  public mutating func append<V: Codable & Hashable>(_ value: V) {}
  /// https://developer.apple.com/documentation/swiftui/navigationpath/removelast(_:)
  public mutating func removeLast(_ k: Int = 1) {}

  /// https://developer.apple.com/documentation/swiftui/navigationpath/codablerepresentation
  public struct CodableRepresentation: Codable, Equatable {}
}

/// https://developer.apple.com/documentation/swiftui/navigationstack
nonisolated public struct NavigationStack<Data, Root: View>: View {
  /// https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
  public init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}
  /// https://developer.apple.com/documentation/swiftui/navigationstack/init(path:root:)-63x0h
  public init(path: Binding<NavigationPath>, @ViewBuilder root: () -> Root)
  where Data == NavigationPath {}
  /// https://developer.apple.com/documentation/swiftui/navigationstack/init(path:root:)-3bt4q
  public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
  where
    Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection,
    Data.Element: Hashable
  {}
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/navigationlink
nonisolated public struct NavigationLink<Label: View, Destination: View>: View {
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension NavigationLink where Destination == Never {
  /// https://developer.apple.com/documentation/swiftui/navigationlink/init(value:label:)
  nonisolated public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) {}
  /// https://developer.apple.com/documentation/swiftui/navigationlink/init(value:label:)
  nonisolated public init<P: Codable & Hashable>(value: P?, @ViewBuilder label: () -> Label) {}
}

extension NavigationLink where Label == Text, Destination == Never {
  /// https://developer.apple.com/documentation/swiftui/navigationlink/init(_:value:)
  nonisolated public init<P: Hashable>(_ titleKey: LocalizedStringKey, value: P?) {}
  /// https://developer.apple.com/documentation/swiftui/navigationlink/init(_:value:)
  nonisolated public init<S: StringProtocol, P: Hashable>(_ title: S, value: P?) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility
public struct NavigationSplitViewVisibility: Equatable, Codable, Sendable {
  let name: String
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/detailonly
  public static var detailOnly: NavigationSplitViewVisibility { .init(name: "detailOnly") }
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/doublecolumn
  public static var doubleColumn: NavigationSplitViewVisibility { .init(name: "doubleColumn") }
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/all
  public static var all: NavigationSplitViewVisibility { .init(name: "all") }
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewvisibility/automatic
  public static var automatic: NavigationSplitViewVisibility { .init(name: "automatic") }
}

/// Not `Codable`, as documented.
/// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn
public struct NavigationSplitViewColumn: Hashable, Sendable {
  let name: String
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/sidebar
  public static var sidebar: NavigationSplitViewColumn { .init(name: "sidebar") }
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/content
  public static var content: NavigationSplitViewColumn { .init(name: "content") }
  /// https://developer.apple.com/documentation/swiftui/navigationsplitviewcolumn/detail
  public static var detail: NavigationSplitViewColumn { .init(name: "detail") }
}

/// https://developer.apple.com/documentation/swiftui/navigationsplitview
nonisolated public struct NavigationSplitView<Sidebar: View, Content: View, Detail: View>: View {
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(sidebar:content:detail:)
  public init(
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content,
    @ViewBuilder detail: () -> Detail
  ) {}
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:sidebar:content:detail:)
  public init(
    columnVisibility: Binding<NavigationSplitViewVisibility>,
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content,
    @ViewBuilder detail: () -> Detail
  ) {}
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:preferredcompactcolumn:sidebar:content:detail:)
  public init(
    columnVisibility: Binding<NavigationSplitViewVisibility>,
    preferredCompactColumn: Binding<NavigationSplitViewColumn>,
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content,
    @ViewBuilder detail: () -> Detail
  ) {}
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension NavigationSplitView where Content == EmptyView {
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(sidebar:detail:)
  nonisolated public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) {}
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:sidebar:detail:)
  nonisolated public init(
    columnVisibility: Binding<NavigationSplitViewVisibility>,
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail
  ) {}
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(preferredcompactcolumn:sidebar:detail:)
  nonisolated public init(
    preferredCompactColumn: Binding<NavigationSplitViewColumn>,
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail
  ) {}
  /// https://developer.apple.com/documentation/swiftui/navigationsplitview/init(columnvisibility:preferredcompactcolumn:sidebar:detail:)
  nonisolated public init(
    columnVisibility: Binding<NavigationSplitViewVisibility>,
    preferredCompactColumn: Binding<NavigationSplitViewColumn>,
    @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail
  ) {}
}

// MARK: - Tabs

/// https://developer.apple.com/documentation/swiftui/tabview
nonisolated public struct TabView<SelectionValue: Hashable, Content: View>: View {
  /// The view-based form: each child view is a tab, selected by its `tag(_:)`.
  /// https://developer.apple.com/documentation/swiftui/tabview/init(selection:content:)
  public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {}
  /// The `Tab`-based form (iOS 18, macOS 15).
  /// https://developer.apple.com/documentation/swiftui/tabview/init(selection:content:)
  public init<C: TabContent>(
    selection: Binding<SelectionValue>, @TabContentBuilder<SelectionValue> content: () -> C
  ) where Content == TabContentBuilder<SelectionValue>.Content<C> {}
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

extension TabView where SelectionValue == Int {
  /// https://developer.apple.com/documentation/swiftui/tabview/init(content:)
  nonisolated public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/tabcontent
@MainActor @preconcurrency
public protocol TabContent<TabValue> {
  /// https://developer.apple.com/documentation/swiftui/tabcontent/tabvalue
  associatedtype TabValue: Hashable where Self.TabValue == Self.Body.TabValue
  /// https://developer.apple.com/documentation/swiftui/tabcontent/body-swift.associatedtype
  associatedtype Body: TabContent
  /// https://developer.apple.com/documentation/swiftui/tabcontent/body-swift.property
  @TabContentBuilder<TabValue> @MainActor @preconcurrency var body: Self.Body { get }
}

/// Stands for the private body of primitive tab content (the stand-in's own; not SwiftUI API).
public struct _StandInTabContent<TabValue: Hashable>: TabContent {
  nonisolated public init() {}
  nonisolated public var body: _StandInTabContent<TabValue> { return self }
}

/// https://developer.apple.com/documentation/swiftui/tabcontentbuilder
@resultBuilder
public struct TabContentBuilder<TabValue: Hashable> {
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildexpression(_:)
  public static func buildExpression<Content: TabContent>(_ content: Content) -> Content
  where Content.TabValue == TabValue { content }
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildblock(_:)
  public static func buildBlock<C0: TabContent>(_ c0: C0) -> some TabContent<TabValue>
  where C0.TabValue == TabValue { _StandInTabContent<TabValue>() }
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildblock(_:_:)
  public static func buildBlock<C0: TabContent, C1: TabContent>(
    _ c0: C0, _ c1: C1
  ) -> some TabContent<TabValue>
  where C0.TabValue == TabValue, C1.TabValue == TabValue { _StandInTabContent<TabValue>() }
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildblock(_:_:_:)
  public static func buildBlock<C0: TabContent, C1: TabContent, C2: TabContent>(
    _ c0: C0, _ c1: C1, _ c2: C2
  ) -> some TabContent<TabValue>
  where C0.TabValue == TabValue, C1.TabValue == TabValue, C2.TabValue == TabValue {
    _StandInTabContent<TabValue>()
  }
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildblock(_:_:_:_:)
  public static func buildBlock<C0: TabContent, C1: TabContent, C2: TabContent, C3: TabContent>(
    _ c0: C0, _ c1: C1, _ c2: C2, _ c3: C3
  ) -> some TabContent<TabValue>
  where
    C0.TabValue == TabValue, C1.TabValue == TabValue, C2.TabValue == TabValue,
    C3.TabValue == TabValue
  { _StandInTabContent<TabValue>() }
  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/buildblock(_:_:_:_:_:)
  public static func buildBlock<
    C0: TabContent, C1: TabContent, C2: TabContent, C3: TabContent, C4: TabContent
  >(_ c0: C0, _ c1: C1, _ c2: C2, _ c3: C3, _ c4: C4) -> some TabContent<TabValue>
  where
    C0.TabValue == TabValue, C1.TabValue == TabValue, C2.TabValue == TabValue,
    C3.TabValue == TabValue, C4.TabValue == TabValue
  { _StandInTabContent<TabValue>() }

  /// https://developer.apple.com/documentation/swiftui/tabcontentbuilder/content
  nonisolated public struct Content<C: TabContent>: View {
    public var body: Never { fatalError("SwiftUI stand-in: not run") }
  }
}

/// https://developer.apple.com/documentation/swiftui/tab
public struct Tab<Value, Content, Label> {}

extension Tab: TabContent where Value: Hashable, Content: View, Label: View {
  public typealias TabValue = Value
  nonisolated public var body: _StandInTabContent<Value> { return _StandInTabContent() }
}

extension Tab where Value: Hashable, Content: View, Label == DefaultTabLabel {
  /// https://developer.apple.com/documentation/swiftui/tab/init(_:systemimage:value:content:)
  nonisolated public init(
    _ titleKey: LocalizedStringKey, systemImage: String, value: Value,
    @ViewBuilder content: () -> Content
  ) {}
  /// https://developer.apple.com/documentation/swiftui/tab/init(_:systemimage:value:content:)
  nonisolated public init<S: StringProtocol>(
    _ title: S, systemImage: String, value: Value, @ViewBuilder content: () -> Content
  ) {}
}

extension Tab where Value: Hashable, Content: View, Label: View {
  /// https://developer.apple.com/documentation/swiftui/tab/init(value:content:label:)
  nonisolated public init(
    value: Value, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label
  ) {}
}

extension Tab where Value: Hashable, Content: View, Label == EmptyView {
  /// https://developer.apple.com/documentation/swiftui/tab/init(value:content:)
  nonisolated public init(value: Value, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/defaulttablabel
public struct DefaultTabLabel: View {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

// MARK: - View modifiers

extension View {
  /// https://developer.apple.com/documentation/swiftui/view/modifier(_:)
  nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
    ModifiedContent()
  }

  /// https://developer.apple.com/documentation/swiftui/view/tag(_:includeoptional:)
  nonisolated public func tag<V: Hashable>(_ tag: V, includeOptional: Bool = true) -> some View {
    self
  }

  /// https://developer.apple.com/documentation/swiftui/view/id(_:)
  nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/tabitem(_:)
  nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/navigationdestination(for:destination:)
  nonisolated public func navigationDestination<D: Hashable, C: View>(
    for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
  ) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:)
  nonisolated public func sheet<Item: Identifiable, Content: View>(
    item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
    @ViewBuilder content: @escaping (Item) -> Content
  ) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
  nonisolated public func sheet<Content: View>(
    isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
    @ViewBuilder content: @escaping () -> Content
  ) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/onopenurl(perform:)
  nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/oncontinueuseractivity(_:perform:)
  nonisolated public func onContinueUserActivity(
    _ activityType: String, perform action: @escaping (NSUserActivity) -> Void
  ) -> some View { self }

  /// The two-value form: the closure gets the old and the new value.
  /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
  ) -> some View { self }

  /// The form without arguments.
  /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)
  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping () -> Void
  ) -> some View { self }

  /// Covers `task(priority:_:)`: every argument but the action has a default.
  /// https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:)
  nonisolated public func task(
    name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void
  ) -> some View { self }

  /// Covers `task(id:priority:_:)`.
  /// https://developer.apple.com/documentation/swiftui/view/task(id:name:priority:file:line:_:)
  nonisolated public func task<T: Equatable>(
    id value: T, name: String? = nil, priority: TaskPriority = .userInitiated,
    file: String = #fileID, line: Int = #line,
    _ action: sending @escaping @isolated(any) () async -> Void
  ) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
  nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }
}

// MARK: - Apps and scenes

/// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
  /// https://developer.apple.com/documentation/swiftui/app/body-swift.associatedtype
  associatedtype Body: Scene
  /// https://developer.apple.com/documentation/swiftui/app/body-swift.property
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
  /// https://developer.apple.com/documentation/swiftui/app/init()
  @MainActor @preconcurrency init()
}

extension App {
  /// https://developer.apple.com/documentation/swiftui/app/main()
  @MainActor @preconcurrency public static func main() { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
  /// https://developer.apple.com/documentation/swiftui/scene/body-swift.associatedtype
  associatedtype Body: Scene
  /// https://developer.apple.com/documentation/swiftui/scene/body-swift.property
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/never
extension Never: Scene {}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
  /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildexpression(_:)
  public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
  /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
  public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
  /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
  public static func buildBlock<each Content: Scene>(
    _ content: repeat each Content
  ) -> some Scene { _StandInScenes() }
}

/// Stands for the scenes of a multi-scene `body` (the stand-in's own; not SwiftUI API).
public struct _StandInScenes: Scene {
  nonisolated public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
nonisolated public struct WindowGroup<Content: View>: Scene {
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
  public init(@ViewBuilder content: () -> Content) {}
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:content:)
  public init(id: String, @ViewBuilder content: () -> Content) {}
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(for:content:)
  public init<D, C>(for type: D.Type, @ViewBuilder content: @escaping (Binding<D?>) -> C)
  where Content == PresentedWindowContent<D, C>, D: Codable & Hashable, C: View {}
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:for:content:)
  public init<D, C>(
    id: String, for type: D.Type, @ViewBuilder content: @escaping (Binding<D?>) -> C
  ) where Content == PresentedWindowContent<D, C>, D: Codable & Hashable, C: View {}
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(for:content:defaultvalue:)
  public init<D, C>(
    for type: D.Type = D.self, @ViewBuilder content: @escaping (Binding<D>) -> C,
    defaultValue: @escaping () -> D
  ) where Content == PresentedWindowContent<D, C>, D: Codable & Hashable, C: View {}
  /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:for:content:defaultvalue:)
  public init<D, C>(
    id: String, for type: D.Type = D.self, @ViewBuilder content: @escaping (Binding<D>) -> C,
    defaultValue: @escaping () -> D
  ) where Content == PresentedWindowContent<D, C>, D: Codable & Hashable, C: View {}
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

/// https://developer.apple.com/documentation/swiftui/presentedwindowcontent
nonisolated public struct PresentedWindowContent<Data: Codable & Hashable, Content: View>: View {
  public var body: Never { fatalError("SwiftUI stand-in: not run") }
}

// MARK: - Foundation API that SwiftUI's signatures use and Linux's Foundation lacks

#if !canImport(Darwin)
  /// Foundation's user activity (Handoff, universal links), absent from swift-corelibs-foundation.
  /// https://developer.apple.com/documentation/foundation/nsuseractivity
  open class NSUserActivity: NSObject {
    /// https://developer.apple.com/documentation/foundation/nsuseractivity/init(activitytype:)
    public init(activityType: String) {}
    /// https://developer.apple.com/documentation/foundation/nsuseractivity/activitytype
    open var activityType: String { "" }
    /// https://developer.apple.com/documentation/foundation/nsuseractivity/webpageurl
    open var webpageURL: URL?
    /// https://developer.apple.com/documentation/foundation/nsuseractivity/userinfo
    open var userInfo: [AnyHashable: Any]?
  }

  /// https://developer.apple.com/documentation/foundation/nsuseractivitytypebrowsingweb
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public let NSUserActivityTypeBrowsingWeb: String = "NSUserActivityTypeBrowsingWeb"
#endif

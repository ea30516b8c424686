import Testing
@Test func appPlaceholder() { #expect(Bool(true)) }

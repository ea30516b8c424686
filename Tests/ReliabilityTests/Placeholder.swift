import Testing
@Test func reliabilityPlaceholder() { #expect(Bool(true)) }

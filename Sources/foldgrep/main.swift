// foldgrep — grep for text, ignoring case and accents: the entry point.
//
// The command is FoldGrepCLI (Sources/FoldGrepCLI/FoldGrep.swift). This target
// holds only the entry point so that the executable alone links the Swift
// runtime statically (Package.swift), while the tests import the command's
// module.

import FoldGrepCLI

FoldGrep.main()

import FoldSearch

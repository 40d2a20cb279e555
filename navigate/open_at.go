package navigate

// OpenAt opens the tree rooted at top as seen from cwd, a slash-separated
// path relative to top ("" for top itself): the view to use, and what
// closes the tree under it.
func OpenAt(top, cwd string) (*Tree, func(), error) {
	tree, err := Open(top)
	if err != nil {
		return nil, nil, err
	}
	view, err := tree.At(cwd)
	if err != nil {
		tree.Close()
		return nil, nil, err
	}
	return view, func() { tree.Close() }, nil
}

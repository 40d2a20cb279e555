package memory

import (
	"errors"
	"fmt"
	"strings"
)

// PageOptions select a page of a memory's items: enabled ones (All: every
// one), of one topic (case-insensitive) when Topic is set, at most Limit
// of them, starting after item After (an ID or a unique beginning of one).
type PageOptions struct {
	All   bool
	Topic string
	After string
	Limit int
}

// Page is one page of a memory's items (`git adr memory list --json`).
type Page struct {
	Items []*Item `json:"items"`
	// Total counts the items the filters select, over every page.
	Total int `json:"total"`
	// NextAfter is the After value of the next page, null on the last.
	NextAfter *string `json:"next_after"`
	Commit    string  `json:"commit"`
	// Following counts the selected items after this page.
	Following int `json:"-"`
}

// AfterError is an After that does not name an item the filters select.
type AfterError struct {
	Msg string
	// Missing: After names an item, but not one of those listed.
	Missing bool
}

func (e *AfterError) Error() string { return e.Msg }

// Page returns the page o selects, in the order the items were added.
func (st *State) Page(o PageOptions) (*Page, error) {
	var sel []*Item
	for _, it := range st.Items {
		if (o.All || it.Enabled) && (o.Topic == "" || strings.EqualFold(it.Topic, strings.TrimSpace(o.Topic))) {
			sel = append(sel, it)
		}
	}
	start := 0
	if o.After != "" {
		it, err := st.Resolve(o.After)
		if err != nil {
			return nil, &AfterError{Msg: fmt.Sprintf("%v", err)}
		}
		start = -1
		for i, s := range sel {
			if s == it {
				start = i + 1
			}
		}
		if start < 0 {
			return nil, &AfterError{Msg: it.ID, Missing: true}
		}
	}
	page := sel[start:min(len(sel), start+o.Limit)]
	out := &Page{Items: append([]*Item{}, page...), Total: len(sel), Commit: st.Commit, Following: len(sel) - start - len(page)}
	if start+len(page) < len(sel) {
		last := page[len(page)-1].ID
		out.NextAfter = &last
	}
	return out, nil
}

// Shown is an item with its history (`git adr memory show --json`).
type Shown struct {
	Item *Item `json:"item"`
	// Removed: the item is no longer in the memory; Item is its last
	// state.
	Removed bool     `json:"removed"`
	History []Change `json:"history"`
}

// Show is the item id names (an ID or a unique beginning of one) with
// every commit that changed it, newest first; a removed item, named by
// its full ID, from its last state in the history.
func (s Store) Show(st *State, id string) (*Shown, error) {
	res := &Shown{}
	it, err := st.Resolve(id)
	switch {
	case err == nil:
		res.Item = it
		if res.History, err = s.History(it.ID); err != nil {
			return nil, err
		}
	case errors.Is(err, ErrNotFound) && ValidID(strings.ToLower(id)):
		if res.Item, res.History, err = s.Removed(strings.ToLower(id)); err != nil {
			return nil, err
		}
		res.Removed = true
	default:
		return nil, err
	}
	if res.History == nil {
		res.History = []Change{}
	}
	return res, nil
}

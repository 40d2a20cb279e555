package ledger

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// Trailer keys by which a commit names the records it implements or
// refers to (git commit --trailer "Implements: ADR-0012").
const (
	KeyImplements = "Implements"
	KeyRefs       = "Refs"
)

// How a commit is tied to a record, strongest first.
const (
	KindImplements = "implements" // an Implements: trailer names it
	KindRefs       = "refs"       // a Refs: trailer names it
	KindRecord     = "record"     // the commit changed the record's file
)

// RecordCommit is one commit of a record's history.
type RecordCommit struct {
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Subject string `json:"subject"`
	// Kind is KindImplements, KindRefs or KindRecord.
	Kind string `json:"kind"`
}

// History finds the commits of HEAD's history tied to rec by a trailer,
// and those that changed its file, newest first, at most max of them
// (never nil). A commit both tied and changing the file counts as tied.
func History(r *gitops.Repo, l *adr.Log, rec *adr.Record, max int) ([]RecordCommit, error) {
	if _, err := r.Head(); err != nil {
		return []RecordCommit{}, nil // no commit yet
	}
	kinds := map[string]string{}
	var order []RecordCommit
	add := func(c RecordCommit) {
		if k, ok := kinds[c.Commit]; ok {
			if k == KindRecord && c.Kind != KindRecord {
				kinds[c.Commit] = c.Kind
				for i := range order {
					if order[i].Commit == c.Commit {
						order[i].Kind = c.Kind
					}
				}
			}
			return
		}
		kinds[c.Commit] = c.Kind
		order = append(order, c)
	}
	// Commits whose message names the number at all, then their trailers
	// read exactly.
	num := fmt.Sprint(rec.Number)
	if !rec.Numbered {
		num = rec.ID
	}
	cs, err := r.CommitsByTrailer([]string{KeyImplements, KeyRefs}, num)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if kind := trailerKind(l, rec, c.Trailers); kind != "" {
			add(RecordCommit{Commit: c.Hash, Date: c.Date, Subject: c.Subject, Kind: kind})
		}
	}
	if cs, err = r.FileHistory(rec.Path); err != nil {
		return nil, err
	}
	for _, c := range cs {
		add(RecordCommit{Commit: c.Hash, Date: c.Date, Subject: c.Subject, Kind: KindRecord})
	}
	// Newest first by commit date (ISO 8601 sorts as text).
	sort.SliceStable(order, func(i, j int) bool { return order[i].Date > order[j].Date })
	if len(order) > max {
		order = order[:max]
	}
	if order == nil {
		order = []RecordCommit{}
	}
	return order, nil
}

// trailerKind is how trailers tie a commit to rec: KindImplements when an
// Implements: trailer names it, else KindRefs when a Refs: trailer does,
// else "". IDs are separated by commas, spaces or semicolons and resolved
// in l as any reference is ("12", "ADR-0012").
func trailerKind(l *adr.Log, rec *adr.Record, trailers []string) string {
	kind := ""
	for _, t := range trailers {
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		for _, id := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			if got, err := l.Resolve(id); err == nil && got == rec {
				if strings.EqualFold(key, KeyImplements) {
					kind = KindImplements
				} else if kind == "" {
					kind = KindRefs
				}
			}
		}
	}
	return kind
}

// LatestImplementation is the newest commit with an Implements: trailer
// for rec, nil when none (or when the history cannot be read).
func LatestImplementation(r *gitops.Repo, l *adr.Log, rec *adr.Record) *RecordCommit {
	cs, err := History(r, l, rec, 10000)
	if err != nil {
		return nil
	}
	for _, c := range cs {
		if c.Kind == KindImplements {
			return &c
		}
	}
	return nil
}

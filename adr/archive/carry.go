package archive

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// This file carries out a confirmed plan after the caller has taken the
// lock: computing it again from HEAD, finishing a publication an
// interrupted run committed, and recording it done. The caller asks,
// prints and picks the exit code.

// Again computes plan p again over log l on the current HEAD, from the
// request p was made with (a restore's undone revision read from the
// store), so the caller can compare it with what was approved.
func (s *Store) Again(l *adr.Log, p *Plan) (*Result, error) {
	head, err := s.Repo.ResolveRef("HEAD")
	if err != nil {
		return nil, err
	}
	req := Request{Kind: p.Kind, Base: head, Layout: p.Layout, Ack: p.Acknowledged, OnAccept: p.OnAccept}
	for _, m := range p.Records {
		req.IDs = append(req.IDs, m.From)
	}
	if p.Kind == KindRestore {
		if req.Undo, _, err = s.Revision(p.ID, p.Undoes); err != nil {
			return nil, err
		}
		req.PlanID, req.Revision, req.IDs = p.ID, p.Undoes, nil
	}
	return Prepare(s.Repo, l, req)
}

// Finish completes a publication of plan p that an interrupted run
// committed (pub, its last commit, found by its trailer): the work tree
// and index get its files when HEAD is still there (journalled in
// journalDir for command). It returns the publication's commits, oldest
// first, and the files left as they were because they changed since.
// Never a second publication.
func Finish(repo *gitops.Repo, p *Plan, pub, journalDir, command string) (commits, kept []string, err error) {
	if commits, err = Commits(repo, pub, p.Commits); err != nil {
		return nil, nil, err
	}
	if head, err := repo.ResolveRef("HEAD"); err == nil && head == pub {
		changes, err := Changes(repo, p, pub)
		if err != nil {
			return nil, nil, err
		}
		if kept, err = publish.Sync(repo, commits[0]+"^", pub, changes, journalDir, command); err != nil {
			return nil, nil, err
		}
	}
	return commits, kept, nil
}

// Commits lists a publication's n commits, oldest first, from its last.
func Commits(repo *gitops.Repo, last string, n int) ([]string, error) {
	var out []string
	for i := max(n, 1) - 1; i >= 0; i-- {
		c, err := repo.ResolveRef(fmt.Sprintf("%s~%d", last, i))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Done records plan p, whose revision commit is commit, done in commits:
// a new revision in state done, with the bytes every file of an archive
// had before, so a restore can give them back. It returns the revision
// saved. Each step can be repeated: an interrupted run is finished by the
// next confirmation.
func (s *Store) Done(p *Plan, commit string, commits []string) (*Plan, error) {
	done := *p
	done.State, done.Published = Done, commits
	files := map[string][]byte{}
	if p.Kind == KindArchive {
		for _, f := range p.Files {
			data, err := s.Repo.ReadBlob(f.Before)
			if err != nil {
				return nil, err
			}
			before := f.Path
			if f.From != "" {
				before = f.From
			}
			files[BeforeFile(before)] = data
		}
	}
	if _, err := s.Save(&done, files, commit); err != nil {
		return nil, err
	}
	return &done, nil
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

// workspacePruneCommand is `git adr workspace prune`; file takes the
// optional FILE as the other workspace subcommands do.
func workspacePruneCommand(env *Env, file func(*cli.Context) error) *cli.Command {
	return &cli.Command{
		Name: "prune", Usage: "remove the mirrors no workspace file names any more", ArgsUsage: "[FILE]",
		Description: `Every workspace sync records its workspace file in each mirror it fetches
into. prune keeps a mirror while one of the files it recorded is still there
and still names it, or FILE (when given) names it, and removes the others (a
repository taken out of a file, or every mirror of a file deleted). A mirror
a sync holds, one recorded by a file that does not load, and one that
recorded no file (synced by an earlier git-adr) are kept, with a warning.
--dry-run says what would go and changes nothing.

Examples:
   git adr workspace prune --dry-run
   git adr workspace prune adr-workspace.toml`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be removed, and remove nothing"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"},
		},
		Action: func(c *cli.Context) error {
			if err := file(c); err != nil {
				return err
			}
			return runWorkspacePrune(env, c.Bool("dry-run"), c.Bool("json"))
		},
	}
}

// wsPruneJSON is what `workspace prune --json` prints.
type wsPruneJSON struct {
	DryRun bool `json:"dry_run"`
	// Removed are the mirrors removed (to be removed, in a dry run).
	Removed []wsPrunedJSON `json:"removed"`
	// Bytes is what they held.
	Bytes int64 `json:"bytes"`
	// Kept counts every mirror kept, those below included.
	Kept int `json:"kept"`
	// Busy are mirrors a sync held; NoRecord those that recorded no
	// workspace file; Unreadable the recorded files that do not load.
	Busy       []wsBusyJSON `json:"busy"`
	NoRecord   []string     `json:"no_record"`
	Unreadable []string     `json:"unreadable"`
}

type wsPrunedJSON struct {
	Name  string `json:"name"`
	URL   string `json:"url,omitempty"`
	Bytes int64  `json:"bytes"`
}

type wsBusyJSON struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

func runWorkspacePrune(env *Env, dryRun, asJSON bool) error {
	var keep []*workspace.Workspace
	var cacheDir string
	if env.Workspace != "" {
		ws, err := env.workspace()
		if err != nil {
			return err
		}
		keep, cacheDir = []*workspace.Workspace{ws}, ws.CacheDir
	} else {
		dir, err := workspace.DefaultCacheDir()
		if err != nil {
			return usagef("%v", err).hint("set XDG_CACHE_HOME or HOME")
		}
		cacheDir = dir
	}
	res, err := workspace.Prune(cacheDir, env.command, keep, dryRun)
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	if asJSON && res != nil {
		// What was removed before a mirror could not be is printed too,
		// and the command still fails.
		out := wsPruneJSON{DryRun: dryRun, Removed: []wsPrunedJSON{}, Kept: res.Kept + len(res.Unknown) + len(res.Busy), Busy: []wsBusyJSON{}, NoRecord: append([]string{}, res.Unknown...), Unreadable: []string{}}
		for _, m := range res.Removed {
			out.Removed = append(out.Removed, wsPrunedJSON{Name: m.Name, URL: m.Source, Bytes: m.Bytes})
			out.Bytes += m.Bytes
		}
		for _, b := range res.Busy {
			out.Busy = append(out.Busy, wsBusyJSON{Name: b.Name, Error: b.Err.Error()})
		}
		for _, u := range res.Unreadable {
			out.Unreadable = append(out.Unreadable, u.Error())
		}
		if werr := writeJSON(env.Out, out); werr != nil {
			return werr
		}
		return err
	}
	var freed int64
	if res != nil {
		for _, m := range res.Removed {
			fmt.Fprintf(env.Out, "%s %s (%s)", verb, adr.Escape(m.Name), byteSize(m.Bytes))
			if m.Source != "" {
				fmt.Fprintf(env.Out, ": %s", adr.Escape(m.Source))
			}
			fmt.Fprintln(env.Out)
			freed += m.Bytes
		}
		for _, b := range res.Busy {
			fmt.Fprintf(env.Err, "git-adr: warning: kept %s: %s\n", adr.Escape(b.Name), adr.Escape(b.Err.Error()))
		}
		for _, u := range res.Unreadable {
			fmt.Fprintf(env.Err, "git-adr: warning: %s\n", adr.Escape(u.Error()))
		}
		if len(res.Unknown) > 0 {
			fmt.Fprintf(env.Err, "git-adr: warning: kept %s that recorded no workspace file (synced by an earlier git-adr): %s\n", plural(len(res.Unknown), "mirror"), adr.Escape(strings.Join(res.Unknown, ", ")))
			by := fmt.Sprintf("`rm -rf %s`", filepath.Join(cacheDir, res.Unknown[0]))
			if len(res.Unknown) > 1 {
				by = "they are in " + cacheDir
			}
			fmt.Fprintf(env.Err, "hint: run `git adr workspace sync` of each workspace file that uses them, then prune again; or remove them by hand (%s)\n", adr.Escape(by))
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "%s %s (%s); kept %s\n", verb, plural(len(res.Removed), "mirror"), byteSize(freed), plural(res.Kept+len(res.Unknown)+len(res.Busy), "mirror"))
	return nil
}

// byteSize says n bytes in the largest binary unit that keeps it at least
// one, with one decimal past KiB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", n>>10)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

package main

import (
	"bufio"
	"encoding/json"
	"io"
)

// bulkWriter buffers the many small writes of a listing (a tabwriter
// writes every cell and its padding apart): one system call per 64 KiB
// instead of several per line, 80,000 of them for `list` at 10,000
// records. Flush it before anything else is written to the terminal.
func bulkWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 64<<10) }

// writeJSON prints v as indented JSON with a final newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

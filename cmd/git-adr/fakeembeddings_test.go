package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/git-adr/git-adr/internal/embedtest"
)

// fakeEmbeddingsMain serves an OpenAI-compatible embeddings endpoint
// (internal/embedtest: words of one concept land close) on a free local
// port, writes its base URL to the file named by its argument, and
// answers until it is killed. FAKE_EMBEDDINGS_KEY, when set, is the
// Bearer token it requires; FAKE_EMBEDDINGS_LOG, when set, gets one line
// per request (method, path, model, number of inputs, Authorization).
func fakeEmbeddingsMain() int {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fake-embeddings URLFILE")
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-embeddings:", err)
		return 1
	}
	srv := &embedtest.Server{Key: os.Getenv("FAKE_EMBEDDINGS_KEY")}
	if f := os.Getenv("FAKE_EMBEDDINGS_LOG"); f != "" {
		srv.Log = func(line string) {
			if lf, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(lf, line)
				lf.Close()
			}
		}
	}
	tmp := os.Args[1] + ".tmp"
	os.WriteFile(tmp, []byte("http://"+ln.Addr().String()+"/v1"), 0o644)
	os.Rename(tmp, os.Args[1])
	if err := http.Serve(ln, srv); err != nil {
		fmt.Fprintln(os.Stderr, "fake-embeddings:", err)
		return 1
	}
	return 0
}

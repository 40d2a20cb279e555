package lazyre

import (
	"sync"
	"testing"
)

func TestLazy(t *testing.T) {
	re := New(`(\d+)-(\w+)`)
	if re.rx != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := re.FindStringSubmatch("x 12-ab"); len(m) != 3 || m[1] != "12" {
				t.Errorf("match = %q", m)
			}
		}()
	}
	wg.Wait()
	if !re.MatchString("3-c") || re.MatchString("none") {
		t.Error("MatchString")
	}
	defer func() {
		if recover() == nil {
			t.Error("an invalid pattern must panic on first use")
		}
	}()
	New(`(`).MatchString("x")
}

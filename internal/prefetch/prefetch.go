// Package prefetch starts work ahead of the moment its result is needed:
// git commands that run while the decision log loads.
package prefetch

// Start starts f now, on its own goroutine, and returns what waits for
// its result; that may be called any number of times.
func Start[T any](f func() (T, error)) func() (T, error) {
	var v T
	var err error
	done := make(chan struct{})
	go func() {
		v, err = f()
		close(done)
	}()
	return func() (T, error) {
		<-done
		return v, err
	}
}

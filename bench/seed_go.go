// SPDX-License-Identifier: MIT

// The seed workload on Go's net/http, for build/bench/seed (bench/seed.c has the protocol):
// per request, http.ReadRequest on a bufio.Reader (4 KiB, as net/http's server uses) over a
// bytes.Reader of the file, then the method, r.Header.Get("User-Agent") and the first name
// of r.Cookies(); a Content-Length body is skipped in the bufio.Reader (the C rows skip it
// too). Both readers are reset, not reallocated, for each pass over a file.
// Built by mk/seed.mk with Debian's golang-go: go build -o build/bench/seed-go bench/seed_go.go
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

type answer struct {
	method, ua, cookie string
	messages           int
}

var (
	rd   = bytes.NewReader(nil)
	br   = bufio.NewReaderSize(rd, 4096)
	sink int
)

// pass parses every request of data; the answer is the last request's (messages 0: error).
func pass(data []byte) answer {
	var a answer
	rd.Reset(data)
	br.Reset(rd)
	for {
		r, err := http.ReadRequest(br)
		if err == io.EOF {
			return a
		}
		if err != nil || len(r.TransferEncoding) > 0 {
			return answer{}
		}
		a.method = r.Method
		a.ua = r.Header.Get("User-Agent")
		a.cookie = ""
		if cs := r.Cookies(); len(cs) > 0 {
			a.cookie = cs[0].Name
		}
		if r.ContentLength > 0 {
			if n, _ := br.Discard(int(r.ContentLength)); int64(n) != r.ContentLength {
				return answer{}
			}
		}
		a.messages++
	}
}

func main() {
	files := os.Args[1:]
	data := make([][]byte, len(files))
	out := bufio.NewWriter(os.Stdout)
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		data[i] = b
		a := pass(b)
		fmt.Fprintf(out, "answer\t%d\t%d\t%s\t%s\t%s\n", i, a.messages, a.method, a.ua, a.cookie)
	}
	// a short warm-up: the code is compiled ahead of time; this fills caches and the heap
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
		for _, b := range data {
			sink += pass(b).messages
		}
	}
	fmt.Fprintln(out, "ready")
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var i, n int
		var secs float64
		m := 0
		if _, err := fmt.Sscanf(in.Text(), "run %d %d", &i, &n); err == nil && i >= 0 && i < len(data) {
			for k := 0; k < n; k++ {
				a := pass(data[i])
				sink += len(a.method) + len(a.ua) + len(a.cookie)
				m = a.messages
			}
		} else if _, err := fmt.Sscanf(in.Text(), "warm %d %g", &i, &secs); err == nil && i >= 0 && i < len(data) {
			for end := time.Now().Add(time.Duration(secs * 1e9)); time.Now().Before(end); {
				m = pass(data[i]).messages
			}
		} else {
			fmt.Fprintln(os.Stderr, "seed-go: bad command:", strings.TrimSpace(in.Text()))
			os.Exit(2)
		}
		fmt.Fprintf(out, "done %d\n", m)
		out.Flush()
	}
}

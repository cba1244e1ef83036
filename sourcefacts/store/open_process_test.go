package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// openerEnv makes the test binary an opener process (TestOpenerProcess).
const openerEnv = "RLM_STORE_TEST_OPENER"

// TestOpenerProcess is not a test: run with openerEnv set to a root it
// opens that root's (new) knowledge base, takes a snapshot and exits 0, or
// prints the error and exits 3.
func TestOpenerProcess(t *testing.T) {
	root := os.Getenv(openerEnv)
	if root == "" {
		return
	}
	s, err := Open(context.Background(), root, nil)
	if err == nil {
		var sn *Snapshot
		if sn, err = s.Snapshot(context.Background(), All(), SnapshotOptions{}); err == nil {
			sn.Close()
		}
		s.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "opener:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// TestManyProcessesOpenANewKnowledgeBaseAtOnce: processes that open the
// same new knowledge base at the same moment (several CLI commands on a
// fresh tree) all succeed; creating the database and switching it to WAL
// waits for the lock instead of failing with SQLITE_BUSY.
func TestManyProcessesOpenANewKnowledgeBaseAtOnce(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs os/exec of the test binary")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 12 {
		root := t.TempDir()
		for i := range 20 {
			writeFile(t, root, fmt.Sprintf("f%d.go", i), []byte(fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)))
		}
		var wg sync.WaitGroup
		errs := make([]string, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(exe, "-test.run=^TestOpenerProcess$")
				cmd.Env = append(os.Environ(), openerEnv+"="+root)
				if out, err := cmd.CombinedOutput(); err != nil {
					errs[i] = fmt.Sprintf("%v: %s", err, out)
				}
			}()
		}
		wg.Wait()
		for i, e := range errs {
			if e != "" {
				t.Errorf("trial %d, process %d: %s", trial, i, e)
			}
		}
		if _, err := os.Stat(filepath.Join(root, ".rlm", "kb.sqlite")); err != nil {
			t.Fatal(err)
		}
	}
}

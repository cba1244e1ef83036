# Mutants for issue 12's reliability faults (see scripts/mutants.sh).

# Walking real trees: a per-path failure is recorded, the rest listed.
mutant "an unreadable directory fails the walk" sourcefacts/list.go 's|w.faults = append(w.faults, PathFault{Path: strings.Join(comps, "/"), Err: err})|return err|' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "a special file is silently not listed" sourcefacts/list.go 's|w.faults = append(w.faults, PathFault{Path: rel, Err: fmt.Errorf("%w: %s", ErrSpecialFile, specialKind(t))})||' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "a symbolic link loop is silently not listed" sourcefacts/list.go 's|return false, err$|return false, nil|' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "files under an unwalkable directory are dropped as gone" sourcefacts/store/validate.go 's|if now.same(want) {|if w.gone \|\| now.same(want) {|' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'
mutant "status does not show the walk's faults" cmd/rlm/status.go 's|printFaults(stdout, faultsOut(s.Faults))||' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'
mutant "an answer's notes do not count the walk's faults" rlm.go 's|ans.Unwalked = append(ans.Unwalked, |_ = append(ans.Unwalked, |' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'

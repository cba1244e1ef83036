# Mutants for issue 13's cold index (docs/BENCHMARKS.md, "### Cold index:
# facts held for the search index, prose split once per batch"; see
# scripts/mutants.sh): the facts a cold check publishes are held packed with
# its snapshot and read back exactly as the database rows read, only for
# the row they were written with; the FTS text split through a batch's
# memo is the text of splitting every word; index -cpuprofile writes a
# profile.
H='./sourcefacts/store -run TestHeldFactsReadAsTheDatabaseRowsDo'
mutant "the held facts are not given to the snapshot" sourcefacts/store/snapshot.go 's|^\tsnap.held = held$|\tsnap.held, _ = nil, held|' $H
mutant "held facts of another file generation are used" sourcefacts/store/packed.go 's|f.FileGeneration == h.fileGen \&\& ||' $H
mutant "held facts of another parse generation are used" sourcefacts/store/packed.go 's| \&\& f.ParseGeneration == h.parseGen||' $H
mutant "held facts of another project generation are used" sourcefacts/store/packed.go 's| \&\& f.PublishedIn == h.gen||' $H
mutant "held facts of other bytes are used" sourcefacts/store/packed.go 's|return f.Hash == h.hash \&\& |return |' $H
mutant "held facts are recorded with the row's old parse generation" sourcefacts/store/writefile.go 's|parseGen: r.parseGen + 1|parseGen: r.parseGen|' $H
mutant "held definitions keep spare capacity" sourcefacts/store/packed.go 's|ff.Symbols = make(\[\]sourcefacts.Symbol, len(u.Symbols))|ff.Symbols = make([]sourcefacts.Symbol, len(u.Symbols), len(u.Symbols)+1)|' $H
mutant "ReleaseFacts keeps the facts" sourcefacts/store/snapshot.go 's|^\tdelete(sn.held, path)$|\t_ = path|' $H
mutant "a closed snapshot keeps the held facts" sourcefacts/store/snapshot.go 's|sn.tx, sn.conn, sn.held = nil, nil, nil|sn.tx, sn.conn = nil, nil|' $H
mutant "a check not asked to hold facts holds them" sourcefacts/store/validate.go 's|^\tif s.hold {$|\tif true {|' $H

M='./retrieval/embedded -run TestProseIndexTextThroughTheMemoIsTheTextWithout'
mutant "the memo is keyed by the lowercased word" retrieval/embedded/tokens.go 's|\tif t, ok := m\[w\]; ok {|\tif t, ok := m[strings.ToLower(w)]; ok {|; s|\t\tm\[w\] = t|\t\tm[strings.ToLower(w)] = t|' $M
mutant "the memo is unbounded" retrieval/embedded/tokens.go 's|\tif len(m) < maxSplitMemo {|\tif true {|' $M
mutant "the memo keeps one word past its bound" retrieval/embedded/tokens.go 's|\tif len(m) < maxSplitMemo {|\tif len(m) <= maxSplitMemo {|' $M
mutant "a word the memo remembers gets the first word's split" retrieval/embedded/tokens.go 's|\tif t, ok := m\[w\]; ok {|\tfor _, t := range m {|' $M

mutant "the profile is never stopped (nor written)" cmd/rlm/index.go 's|^\t\tdefer stop()$|\t\t_ = stop|' ./cmd/rlm -run TestIndexCPUProfileWritesAProfileOfTheRun
mutant "an uncreatable profile is ignored" cmd/rlm/index.go 's|^\t\t\treturn err$|\t\t\t_ = err; return nil|' ./cmd/rlm -run TestIndexCPUProfileWritesAProfileOfTheRun

# bench/tsfloor: flags that give no measurement are refused (breaker5).
mutant "tsfloor refuses fewer than one worker" bench/tsfloor/main.go 's|case workers < 1:|case workers < 0:|' ./bench/tsfloor -run TestFlagsThatGiveNoMeasurementAreRefused

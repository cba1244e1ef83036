# Mutants for issue 13's scaling curve (bench/scale.sh): what the 100 %
# run found (see scripts/mutants.sh).
H='./retrieval/embedded -run TestADefinitionWithAHugeTextIsEmbeddedWithTheRest'

# A definition's text over the embedder's per-text cap no longer leaves
# the whole search index without vectors.
mutant "a long text is embedded whole" retrieval/retrieval.go 's|\t\treturn textclip.Prefix(d.Text, MaxEmbeddingTextBytes)|\t\treturn d.Text|' $H
mutant "a long text is cut inside a rune" retrieval/retrieval.go 's|\t\treturn textclip.Prefix(d.Text, MaxEmbeddingTextBytes)|\t\treturn d.Text[:min(len(d.Text), MaxEmbeddingTextBytes)]|' $H
mutant "the local embedder's default cap is below the texts it is given" providers/config.go 's|DefaultMaxTextBytes    = 32 \* 1024|DefaultMaxTextBytes    = 16 * 1024|' ./providers -run TestTheDefaultEmbedderAcceptsEveryEmbeddingText

# Cold index RSS: the whole tree's facts, held at once by the search index
# build, keep repeated strings once and no spare slice capacity.
I='./sourcefacts/store -run TestFactsReadBackShareRepeatedStringsAndSpareNoCapacity'
mutant "reference names are separate copies" sourcefacts/store/packed.go 's|r.Name, r.Kind, r.Receiver = in(r.Name), in(r.Kind), in(r.Receiver)|r.Name, r.Kind, r.Receiver = strings.Clone(r.Name), in(r.Kind), in(r.Receiver)|' $I
mutant "import paths are separate copies" sourcefacts/store/packed.go 's|im.Path, im.Alias = in(im.Path), in(im.Alias)|im.Path, im.Alias = strings.Clone(im.Path), in(im.Alias)|' $I
mutant "fact slices keep their spare capacity" sourcefacts/store/packed.go 's|ff.References = make(\[\]sourcefacts.Reference, len(u.References))|ff.References = make([]sourcefacts.Reference, len(u.References), len(u.References)+1)|' $I

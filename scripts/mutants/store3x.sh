# Mutants for issue 13, compact storage (branch store3x): the embedded
# schema 7 stores an id, a Text and a vector in less room and gives back
# what was written (see scripts/mutants.sh).
B='./retrieval/embedded -run TestABodyIsReadBackAsWritten'
H='./retrieval/embedded -run TestBinary16IsTheNearestHalfTiesToEven'
U='./retrieval/embedded -run TestUpgradeFromSchemaVersion6StoresWhatThisVersionStores'

# A Text comes back byte for byte, without the fields it starts with.
mutant "the fields a Text starts with are stored again" retrieval/embedded/bodytext.go 's|	if f := fieldsText(d); f != "" \&\& strings.HasPrefix(rest, f) {|	if f := fieldsText(d); false \&\& strings.HasPrefix(rest, f) {|' $B
mutant "a Text is never deflated" retrieval/embedded/bodytext.go 's|	if len(rest) >= minDeflate {|	if false {|' $B
mutant "the fields are joined without their newlines" retrieval/embedded/bodytext.go 's|			b.WriteByte(.\\n.)|			b.WriteByte(0x20)|' $B
mutant "the fields lead with the symbol, not the qualified name" retrieval/embedded/bodytext.go 's|	name := d.Qualified$|	name := d.Symbol|' $B
mutant "a deflated Text is read back raw" retrieval/embedded/bodytext.go 's|		if flags\&bodyDeflate != 0 {|		if false {|' $B
mutant "unknown flags are read as none" retrieval/embedded/bodytext.go 's|		if flags\&^(bodyFields\|bodyDeflate) != 0 {|		if false {|' ./retrieval/embedded -run TestADamagedBodyIsAnErrorNamingTheDocument

# An id is stored only when the generated column would not make it.
mutant "an id with a suffix is not stored" retrieval/embedded/embedded.go 's|	if len(d.ID) == len(d.Path)+1+len(d.Qualified) \&\& strings.HasPrefix(d.ID, d.Path) \&\&|	if strings.HasPrefix(d.ID, d.Path) \&\&|' ./retrieval/embedded -run TestAnIDMadeFromPathAndNameIsNotStoredAgain
mutant "every id is stored" retrieval/embedded/embedded.go 's|	if len(d.ID) == len(d.Path)+1+len(d.Qualified) \&\& strings.HasPrefix(d.ID, d.Path) \&\&|	if false \&\& len(d.ID) == len(d.Path)+1+len(d.Qualified) \&\& strings.HasPrefix(d.ID, d.Path) \&\&|' ./retrieval/embedded -run TestAnIDMadeFromPathAndNameIsNotStoredAgain

# binary16: the nearest half, ties to even, subnormals and Inf included.
mutant "halves truncate instead of rounding" retrieval/embedded/half.go 's|	if rest > halfway \|\| rest == halfway \&\& kept\&1 == 1 {|	if false \&\& rest > halfway \|\| false \&\& rest == halfway \&\& kept\&1 == 1 {|' $H
mutant "ties round up, not to even" retrieval/embedded/half.go 's|	if rest > halfway \|\| rest == halfway \&\& kept\&1 == 1 {|	if rest >= halfway {|' $H
mutant "subnormal halves flush to zero" retrieval/embedded/half.go 's|	if e >= -14 {|	if e < -14 { return sign }; if true {|' $H
mutant "a half's subnormals decode a step off" retrieval/embedded/half.go 's|		v := float32(frac) / (1 << 24)|		v := float32(frac) / (1 << 23)|' $H
mutant "no overflow to Inf" retrieval/embedded/half.go 's|	if e > 15 {|	if e > 16 {|' $H
mutant "a stored vector is not scaled to unit length first" retrieval/embedded/vector.go 's|	normalize(u, v)$|	copy(u, v)|' ./retrieval/embedded -run TestAStoredVectorIsItsUnitVectorInBinary16

# The upgrade from version 6 rewrites ids, keeps Texts and re-encodes vectors.
mutant "the upgrade keeps ids made from path and name" retrieval/embedded/upgrade.go "s|			SELECT rid, NULLIF(id, path \|\| '#' \|\| qualified), id_hash,|			SELECT rid, id, id_hash,|" $U
mutant "the upgrade keeps float32 vectors" retrieval/embedded/upgrade.go 's|	return halveVectors(ctx, tx)|	return nil|' $U
mutant "the upgrade drops the docs of version 6" retrieval/embedded/upgrade.go 's|			FROM docs_v6`,|			FROM docs_v6 WHERE 0`,|' $U

# An upgrade gives back the pages it left; an index of an earlier format
# is removed (breaker, F6).
mutant "an upgrade vacuums the file" retrieval/embedded/embedded.go 's|	if v == 0 \|\| b.path == "" {|	if true {|' ./retrieval/embedded -run TestUpgradeFromSchemaVersion6StoresWhatThisVersionStores
mutant "an index of an earlier format is removed" project/searchindex.go 's|		if !strings.HasSuffix(emb, "-"+indexFormat+".sqlite") {|		if false {|' ./project -run TestAnIndexOfAnEarlierFormatIsRemoved

/*  synonyms.pl -- words people use for the phrasings' words. */
:- multifile(synonym/2).
:- multifile(filler/1).

synonym("begin", "start").
synonym("halt", "stop").
synonym("abort", "cancel").
synonym("switch", "turn").
synonym("lamps", "lights").
synonym("light", "lights").
synonym("song", "music").
synonym("tune", "song").
synonym("track", "song").
synonym("ring", "call").
synonym("dial", "call").
synonym("jot", "write").

filler("just").
filler("for").
filler("me").

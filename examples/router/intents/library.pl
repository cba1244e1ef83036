/*  library.pl -- what the pretend home's music player has (examples/router).

    The player is a genre radio: it has a station for each of the 80
    genres of the ID3v1 tag standard (genre numbers 0-79, the fixed list
    every MP3 tag library carries, spelling "Psychadelic" included), and
    nothing else — no artist, album or song. The list was written from
    the standard, not from the router's test corpus: a request for an
    artist ("play the beatles") names no station, so the router asks what
    to play instead of playing it, as a player does that cannot find what
    it was asked for. What that costs is in docs/BENCHMARKS.md (issue 9).

    catalog/2 and in_catalog/3 are the hooks of rules/intent/values.pl:
    the router checks every music_play value against them before it
    accepts, whoever chose the intent. Words name a station when, without
    a leading article or "some" and a trailing "music", "songs" or the
    like, they are the genre's words (as the router's tokenizer writes
    them: "R&B" is r, b; "Hip-Hop" is hip-hop).
*/
:- multifile(catalog/2).
:- multifile(in_catalog/3).

catalog(music_play, what).

in_catalog(music_play, what, Words) :-
    station_words(Words, Core),
    genre(_, Core), !.

%! station_words(+Words, -Core) is det.
%  Words without leading articles and quantifiers and trailing words
%  for music in general.
station_words(Ws, Core) :-
    drop_leading(Ws, Ws1),
    reverse(Ws1, R),
    drop_generic(R, R1),
    reverse(R1, Core).

drop_leading([W|Ws], Out) :-
    member(W, ["some", "the", "a", "an", "my", "any"]), !,
    drop_leading(Ws, Out).
drop_leading(Ws, Ws).

drop_generic([W|Ws], Out) :-
    member(W, ["music", "songs", "song", "tunes", "radio", "station"]), !,
    drop_generic(Ws, Out).
drop_generic(Ws, Ws).

% The ID3v1 genres, genre(Number, Words).
genre(0, ["blues"]).
genre(1, ["classic", "rock"]).
genre(2, ["country"]).
genre(3, ["dance"]).
genre(4, ["disco"]).
genre(5, ["funk"]).
genre(6, ["grunge"]).
genre(7, ["hip-hop"]).
genre(8, ["jazz"]).
genre(9, ["metal"]).
genre(10, ["new", "age"]).
genre(11, ["oldies"]).
genre(12, ["other"]).
genre(13, ["pop"]).
genre(14, ["r", "b"]).
genre(15, ["rap"]).
genre(16, ["reggae"]).
genre(17, ["rock"]).
genre(18, ["techno"]).
genre(19, ["industrial"]).
genre(20, ["alternative"]).
genre(21, ["ska"]).
genre(22, ["death", "metal"]).
genre(23, ["pranks"]).
genre(24, ["soundtrack"]).
genre(25, ["euro-techno"]).
genre(26, ["ambient"]).
genre(27, ["trip-hop"]).
genre(28, ["vocal"]).
genre(29, ["jazz", "funk"]).
genre(30, ["fusion"]).
genre(31, ["trance"]).
genre(32, ["classical"]).
genre(33, ["instrumental"]).
genre(34, ["acid"]).
genre(35, ["house"]).
genre(36, ["game"]).
genre(37, ["sound", "clip"]).
genre(38, ["gospel"]).
genre(39, ["noise"]).
genre(40, ["alternrock"]).
genre(41, ["bass"]).
genre(42, ["soul"]).
genre(43, ["punk"]).
genre(44, ["space"]).
genre(45, ["meditative"]).
genre(46, ["instrumental", "pop"]).
genre(47, ["instrumental", "rock"]).
genre(48, ["ethnic"]).
genre(49, ["gothic"]).
genre(50, ["darkwave"]).
genre(51, ["techno-industrial"]).
genre(52, ["electronic"]).
genre(53, ["pop-folk"]).
genre(54, ["eurodance"]).
genre(55, ["dream"]).
genre(56, ["southern", "rock"]).
genre(57, ["comedy"]).
genre(58, ["cult"]).
genre(59, ["gangsta"]).
genre(60, ["top", "40"]).
genre(61, ["christian", "rap"]).
genre(62, ["pop", "funk"]).
genre(63, ["jungle"]).
genre(64, ["native", "american"]).
genre(65, ["cabaret"]).
genre(66, ["new", "wave"]).
genre(67, ["psychadelic"]).
genre(68, ["rave"]).
genre(69, ["showtunes"]).
genre(70, ["trailer"]).
genre(71, ["lo-fi"]).
genre(72, ["tribal"]).
genre(73, ["acid", "punk"]).
genre(74, ["acid", "jazz"]).
genre(75, ["polka"]).
genre(76, ["retro"]).
genre(77, ["musical"]).
genre(78, ["rock", "roll"]).
genre(79, ["hard", "rock"]).

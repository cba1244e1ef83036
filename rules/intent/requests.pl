/*  requests.pl -- what an utterance holds besides a command's words: the
    requests it makes, and the markers of an attempt to instruct the
    router itself.

    Go passes an utterance as utterance(Tokens, Features) (or
    utterance(Tokens), no features): Tokens its words (strings), Features
    a list of
      shapes(Ss)          the hostile shapes of the raw text Go found, atoms
                          among url, path, code (intent.Shapes)
      function_words(Ws)  the English function words ("a", "the", "it",
                          "my", ...) among the utterance's words and the
                          candidates' phrasing words (strings)
      slot_kinds(Ks)      the kinds of the candidates' string slots,
                          kind(Intent, Slot, Kind) with Kind text, name or
                          any (package intent, Slot.Kind): what a slot's
                          words are — words to act on, a name, or any text
                          the host keeps as written

    Hooks (declare multifile in your own file):
      request_verb(Word)        a verb that leads a request ("book",
                                "send"): after a conjunction it starts a
                                second request (see split_requests/3)
      particle(Word)            an adverb particle of a phrasal verb
                                ("off" of "turn off"): an action word,
                                like a request_verb/1 (resolve.pl)
      injection_marker(Words)   consecutive words that address the
                                router's instructions, role or authority
                                ("ignore", "previous"): a repair alone
                                never runs such an utterance (guard.pl)
*/

:- multifile(request_verb/1).
:- multifile(particle/1).
:- multifile(injection_marker/1).

%! ut_tokens(+Utterance, -Tokens) is det.
ut_tokens(utterance(Ts), Ts).
ut_tokens(utterance(Ts, _), Ts).

%! ut_feature(+Utterance, ?Feature) is nondet.
ut_feature(utterance(_, Fs), F) :-
    member(F, Fs).

%! slot_kind(+Utterance, +Intent, +Slot, -Kind) is semidet.
%  The kind of a candidate's string slot (the slot_kinds/1 feature).
slot_kind(U, I, S, K) :-
    ut_feature(U, slot_kinds(Ks)),
    memberchk(kind(I, S, K), Ks).

%! function_word(+Utterance, +Word) is semidet.
function_word(U, W) :-
    ut_feature(U, function_words(Ws)),
    memberchk(W, Ws).

% Verbs that lead requests to an assistant or a computer, in English:
% general vocabulary, not the registered intents' (their phrasings' first
% words count as well, see verb_led/3).
request_verb("add"). request_verb("adjust"). request_verb("answer"). request_verb("arrange").
request_verb("ask"). request_verb("book"). request_verb("bring"). request_verb("browse").
request_verb("buy"). request_verb("calculate"). request_verb("call"). request_verb("cancel").
request_verb("change"). request_verb("check"). request_verb("clean"). request_verb("clear").
request_verb("close"). request_verb("compose"). request_verb("connect"). request_verb("convert").
request_verb("copy"). request_verb("create"). request_verb("decrease"). request_verb("delete").
request_verb("dial"). request_verb("disable"). request_verb("download"). request_verb("drive").
request_verb("edit"). request_verb("email"). request_verb("empty"). request_verb("enable").
request_verb("erase"). request_verb("execute"). request_verb("export"). request_verb("fetch").
request_verb("find"). request_verb("fix"). request_verb("follow"). request_verb("forward").
request_verb("get"). request_verb("give"). request_verb("go"). request_verb("google").
request_verb("increase"). request_verb("install"). request_verb("invite"). request_verb("launch").
request_verb("load"). request_verb("lock"). request_verb("log"). request_verb("look").
request_verb("lower"). request_verb("mail"). request_verb("make"). request_verb("message").
request_verb("move"). request_verb("mute"). request_verb("navigate"). request_verb("notify").
request_verb("open"). request_verb("order"). request_verb("pause"). request_verb("pay").
request_verb("phone"). request_verb("pick"). request_verb("ping"). request_verb("play").
request_verb("post"). request_verb("print"). request_verb("publish"). request_verb("purchase").
request_verb("put"). request_verb("raise"). request_verb("read"). request_verb("record").
request_verb("remind"). request_verb("remove"). request_verb("rename"). request_verb("renew").
request_verb("rent"). request_verb("reply"). request_verb("reserve"). request_verb("reset").
request_verb("restart"). request_verb("resume"). request_verb("run"). request_verb("save").
request_verb("schedule"). request_verb("search"). request_verb("sell"). request_verb("send").
request_verb("set"). request_verb("share"). request_verb("show"). request_verb("shut").
request_verb("sign"). request_verb("skip"). request_verb("sort"). request_verb("start").
request_verb("stop"). request_verb("stream"). request_verb("subscribe"). request_verb("switch").
request_verb("take"). request_verb("tell"). request_verb("text"). request_verb("toggle").
request_verb("transfer"). request_verb("translate"). request_verb("turn"). request_verb("tweet").
request_verb("undo"). request_verb("uninstall"). request_verb("unlock"). request_verb("unmute").
request_verb("update"). request_verb("upload"). request_verb("visit"). request_verb("wake").
request_verb("watch"). request_verb("write").

particle("off"). particle("up"). particle("down"). particle("out").
particle("over"). particle("away"). particle("back").

% The usual ways of addressing a model's instructions, role or authority
% (override, role play, claimed privilege), as consecutive words.
injection_marker(["ignore", "previous"]).
injection_marker(["ignore", "prior"]).
injection_marker(["ignore", "all"]).
injection_marker(["ignore", "any"]).
injection_marker(["ignore", "your"]).
injection_marker(["ignore", "the", "above"]).
injection_marker(["forget", "your"]).
injection_marker(["forget", "everything"]).
injection_marker(["disregard"]).
injection_marker(["instructions"]).
injection_marker(["system", "prompt"]).
injection_marker(["new", "rules"]).
injection_marker(["developer", "mode"]).
injection_marker(["jailbreak"]).
injection_marker(["you", "are", "now"]).
injection_marker(["act", "as"]).
injection_marker(["pretend"]).
injection_marker(["roleplay"]).
injection_marker(["role", "play"]).
injection_marker(["override"]).
injection_marker(["unrestricted"]).
injection_marker(["no", "restrictions"]).
injection_marker(["sudo"]).
injection_marker(["admin"]).
injection_marker(["administrator"]).
injection_marker(["authorize"]).
injection_marker(["authorise"]).

%! injection_in(+Utterance, -Marker) is semidet.
%  The first injection_marker/1 whose words occur consecutively in the
%  utterance.
injection_in(U, M) :-
    ut_tokens(U, Ts),
    injection_marker(M),
    append(_, Rest, Ts),
    append(M, _, Rest), !.

%! candidate_starts(+Candidates, -Starts) is det.
%  The first words of the candidates' phrasings.
candidate_starts(Cs, Starts) :-
    findall(W, ( member(cand(_, Ps, _), Cs), member([w(W)|_], Ps) ), Ws),
    sort(Ws, Starts).

%! split_requests(+Utterance, +Starts, -Requests) is det.
%  The utterance's words split before every second request: a
%  conjunction followed by a verb-led clause. The clause's lead word is
%  the first word after the conjunction that is neither a conjunction nor
%  a filler other than a function word ("and please book" leads with
%  "book"; "and a watch" leads with "a"); it is verb-led if it is a
%  request_verb/1 or starts a candidate's phrasing (Starts). Each request
%  after the first begins at its lead word; the conjunctions are dropped.
split_requests(U, Starts, Rs) :-
    ut_tokens(U, Ts),
    requests_of(Ts, U, Starts, Rs).

requests_of(Ts, U, Ss, [R|Rs]) :-
    take_request(Ts, U, Ss, R, Rest),
    (   Rest == none
    ->  Rs = []
    ;   requests_of(Rest, U, Ss, Rs)
    ).

take_request([], _, _, [], none).
take_request([T|Ts], U, Ss, [], After) :-
    conjunction(T),
    lead(Ts, U, After),
    After = [W|_],
    verb_led(W, Ss), !.
take_request([T|Ts], U, Ss, [T|R], Rest) :-
    take_request(Ts, U, Ss, R, Rest).

lead([W|Ws], U, After) :-
    (   conjunction(W)
    ;   filler(W), \+ function_word(U, W)
    ), !,
    lead(Ws, U, After).
lead(Ws, _, Ws).

verb_led(W, _) :-
    request_verb(W), !.
verb_led(W, Ss) :-
    member(S, Ss),
    same_word(W, S), !.

%! unresolved_request(+Utterance, +Candidates, -First, -Request) is semidet.
%  Request is the first request after the first (split_requests/3) that no
%  candidate's phrasing matches whole; First is the first request.
unresolved_request(U, Cs, First, R) :-
    candidate_starts(Cs, Starts),
    split_requests(U, Starts, [First|Later]),
    member(R, Later),
    \+ ( member(cand(_, Ps, _), Cs), best_match(Ps, R, Starts, _) ), !.

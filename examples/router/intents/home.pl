/*  home.pl -- the intents of a small home assistant (examples/router).

    Facts as rules/intent/registry.pl describes them: intent/4 (name,
    description, slots, policy) and phrasing/2 (words with {slot} places).
    The ranges are those the example's handlers hold to (home.go): the
    router refuses a value outside them before any handler runs. A room,
    a place and a contact are names (kind(name)); what the home only
    stores — a note, a shopping item, a reminder — may be any text
    (kind(any)); what a handler acts on — music to find, a time, a web
    query — is text (no URL, path or code). The alarm's time is a time of
    day as its handler reads one (clock.go): "7", "6:45", "7 am", "half
    past six", "noon", maybe "in the evening" or "tomorrow" after it; the
    pattern is that language, so "today" or "soon" is asked for again,
    whoever chose the intent.
*/
:- multifile(intent/4).
:- multifile(phrasing/2).

intent(timer_start, "Start a countdown timer", [slot(duration, duration, required, "duration")], [capabilities([timer]), side_effect(write)]).
intent(timer_cancel, "Cancel the running timer", [], [capabilities([timer]), side_effect(write)]).
intent(timer_status, "Tell how much time is left on the timer", [], [capabilities([timer]), side_effect(read)]).
intent(alarm_set, "Set an alarm for a time of day", [slot(time, string, required, "time of day", [pattern("(?i)^(?:(?:[01]?[0-9]|2[0-3])(?::[0-5][0-9])?(?: o'clock)?|(?:0?[1-9]|1[0-2])(?::[0-5][0-9])? ?(?:am|pm|a\\.m\\.?|p\\.m\\.?)|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?: o'clock| (?:am|pm|a\\.m\\.?|p\\.m\\.?)| (?:fifteen|thirty|forty five|forty-five))?|(?:(?:a )?quarter|half|five|ten|twenty|twenty five|twenty-five) (?:past|to) (?:(?:[01]?[0-9]|2[0-3])|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)|noon|midday|midnight)(?: in the (?:morning|afternoon|evening)| at night| tonight| tomorrow(?: morning| afternoon| evening| night)?)?$")])], [capabilities([alarm]), side_effect(write)]).
intent(lights_on, "Turn the lights on", [slot(room, string, optional, "room", [kind(name)])], [capabilities([lights]), side_effect(write)]).
intent(lights_off, "Turn the lights off", [slot(room, string, optional, "room", [kind(name)])], [capabilities([lights]), side_effect(write)]).
intent(lights_dim, "Dim the lights to a brightness level", [slot(level, integer, required, "brightness in percent", [min(0), max(100)]), slot(room, string, optional, "room", [kind(name)])], [capabilities([lights]), side_effect(write)]).
intent(thermostat_set, "Set the thermostat to a temperature", [slot(degrees, number, required, "temperature in degrees", [min(5), max(30)])], [capabilities([heating]), side_effect(write)]).
intent(music_play, "Play music: a song, artist, album or genre", [slot(what, string, required, "what to play")], [capabilities([music]), side_effect(write)]).
intent(music_pause, "Pause the music", [], [capabilities([music]), side_effect(write)]).
intent(music_skip, "Skip to the next song", [], [capabilities([music]), side_effect(write)]).
intent(volume_set, "Set the speaker volume", [slot(level, integer, required, "volume from 0 to 100", [min(0), max(100)])], [capabilities([music]), side_effect(write)]).
intent(note_add, "Write down a note", [slot(text, string, required, "what to write down", [kind(any)])], [capabilities([notes]), side_effect(write)]).
intent(note_read, "Read back the latest notes", [], [capabilities([notes]), side_effect(read)]).
intent(shopping_add, "Add an item to the shopping list", [slot(item, string, required, "item to buy", [kind(any)])], [capabilities([notes]), side_effect(write)]).
intent(reminder_add, "Remind the user of something later", [slot(what, string, required, "what to remind", [kind(any)]), slot(after, duration, required, "when, from now")], [capabilities([reminders]), side_effect(write)]).
intent(weather_get, "Tell the weather forecast", [slot(place, string, optional, "place", [kind(name)]), slot(day, enum(["today", "tomorrow", "weekend"]), optional, "day")], [capabilities([network]), side_effect(read)]).
intent(calendar_next, "Tell the next calendar event", [], [capabilities([calendar]), side_effect(read)]).
intent(call_contact, "Phone a contact", [slot(who, string, required, "who to call", [kind(name)])], [capabilities([phone]), side_effect(external)]).
intent(search_web, "Search the web for something", [slot(query, string, required, "what to search for")], [capabilities([network]), side_effect(read)]).

phrasing(timer_start, "set a timer for {duration}").
phrasing(timer_start, "start a timer for {duration}").
phrasing(timer_start, "timer for {duration}").
phrasing(timer_start, "start a {duration} timer").
phrasing(timer_start, "set a {duration} timer").
phrasing(timer_cancel, "cancel the timer").
phrasing(timer_cancel, "stop the timer").
phrasing(timer_status, "how much time is left on the timer").
phrasing(timer_status, "how long is left on the timer").
phrasing(alarm_set, "set an alarm for {time}").
phrasing(alarm_set, "wake me up at {time}").
phrasing(lights_on, "turn on the lights").
phrasing(lights_on, "turn the lights on").
phrasing(lights_on, "turn on the lights in the {room}").
phrasing(lights_on, "lights on in the {room}").
phrasing(lights_on, "lights on").
phrasing(lights_off, "turn off the lights").
phrasing(lights_off, "turn the lights off").
phrasing(lights_off, "turn off the lights in the {room}").
phrasing(lights_off, "lights off").
phrasing(lights_dim, "dim the lights to {level} percent").
phrasing(lights_dim, "dim the lights to {level}").
phrasing(lights_dim, "dim the {room} lights to {level} percent").
phrasing(thermostat_set, "set the thermostat to {degrees}").
phrasing(thermostat_set, "set the thermostat to {degrees} degrees").
phrasing(thermostat_set, "set the temperature to {degrees} degrees").
phrasing(music_play, "play {what}").
phrasing(music_play, "put on {what}").
phrasing(music_pause, "pause the music").
phrasing(music_pause, "pause").
phrasing(music_skip, "skip this song").
phrasing(music_skip, "next song").
phrasing(music_skip, "skip").
phrasing(volume_set, "set the volume to {level}").
phrasing(volume_set, "volume {level}").
phrasing(note_add, "take a note {text}").
phrasing(note_add, "note that {text}").
phrasing(note_add, "write down {text}").
phrasing(note_read, "read my notes").
phrasing(note_read, "what are my notes").
phrasing(shopping_add, "add {item} to the shopping list").
phrasing(shopping_add, "add {item} to my shopping list").
phrasing(shopping_add, "put {item} on the shopping list").
phrasing(reminder_add, "remind me to {what} in {after}").
phrasing(reminder_add, "in {after} remind me to {what}").
phrasing(weather_get, "what is the weather").
phrasing(weather_get, "what is the weather {day}").
phrasing(weather_get, "what is the weather in {place}").
phrasing(weather_get, "weather in {place} {day}").
phrasing(weather_get, "will it rain {day}").
phrasing(calendar_next, "what is my next meeting").
phrasing(calendar_next, "what is next on my calendar").
phrasing(call_contact, "call {who}").
phrasing(call_contact, "phone {who}").
phrasing(search_web, "search the web for {query}").
phrasing(search_web, "look up {query}").
phrasing(search_web, "google {query}").

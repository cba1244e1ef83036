mutant "chat answers are bounded" providers/chat.go 's|res.Body = \&limitedBody{ReadCloser: res.Body, left: limit, limit: limit}|_ = limit|' ./providers -run TestAnAnswerLargerThanTheLimit

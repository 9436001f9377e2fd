"""The vocabulary every other part of `sns` speaks, standing on nothing else of ours:
error classes (`errors`), input normalisation (`text`, `textguard`), 64-bit ids (`ids`),
the API's timestamps (`isotime`), email and personality masking (`privacy`), hourly
write throttles (`throttle`), mail limits and the background mail sender (`mail_limits`,
`mailer`), the one guarded door for HTTP requests to user-given URLs (`netfetch`) and
the matcher of a request to stop said in words (`stop_words`)."""

"""One module per game: the checks of its Rules Submission (what is offered, at what odds, with
which options), applied with a jurisdiction's facts (jurisdictions/)."""

"""A status part given as forms shortens before it is dropped (the Stack's `+4 hidden` note at 80 columns)."""

from __future__ import annotations

from diskdoctor.widgets.fit_text import fit_parts

HIDDEN = ("+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN (a wider terminal shows them)",
          "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN", "+4 hidden: ROTA, SCHED, DISC-MAX …", "+4 hidden")


def test_the_lowest_priority_takes_its_shorter_forms_before_it_goes() -> None:
    parts = [("discard passes down to sda", 0), (HIDDEN, 4), ("F1 help", 3)]
    assert fit_parts(parts, 200) == f"discard passes down to sda · {HIDDEN[0]} · F1 help"
    assert fit_parts(parts, 78) == "discard passes down to sda · +4 hidden: ROTA, SCHED, DISC-MAX … · F1 help"
    assert fit_parts(parts, 50) == "discard passes down to sda · +4 hidden · F1 help"
    assert fit_parts(parts, 40) == "discard passes down to sda · F1 help"


def test_a_part_alone_takes_the_form_that_fits_before_it_is_cut() -> None:
    assert fit_parts([(HIDDEN, 1)], 12) == "+4 hidden"
    assert fit_parts([("plain text that is long", 0)], 10) == "plain tex…"

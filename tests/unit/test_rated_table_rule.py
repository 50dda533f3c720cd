"""One person, one seat per rated table (issue 26 §1), as the pure matchmaking rule: a group
never holds two tickets of one owner (a person and their bots, two bots of one owner) or two
tickets whose accounts were seen from one client address within the window
(services/ranked/matchmaking.py, ``kept_apart``). The same rule through Redis and the real
queue: tests/integration/test_ranked_matchmaking.py and tests/integration/test_rated_tables.py."""

from __future__ import annotations

from typing import Any

import pytest

from services import config
from services.client_address import ClientAddress, grpc_scope
from services.ranked.matchmaking import Schedule, form_groups, kept_apart, with_addresses

SCHEDULE = Schedule(window_base=30, window_growth=0, window_max=30, fill_after_ms=10000)


def ticket(tid: str, holder: str, owner: str = "", address: str = "", enq: int = 0) -> dict[str, Any]:
    """A queued 3-player ticket at rating 25 (every window accepts every other)."""
    return {"ticket_id": tid, "holder": holder, "owner": owner, "address": address, "rating": 25.0,
            "enqueued_ms": enq, "min_players": 3, "max_players": 3, "bot": holder.startswith("b:"),
            "name": tid}  # fmt: skip


def tables(tickets: list[dict[str, Any]], now_ms: int, window_s: float = 0.0,
           recent: dict[str, frozenset[str]] | None = None) -> list[set[str]]:  # fmt: skip
    return [{t["ticket_id"] for t in g.tickets}
            for g in form_groups(with_addresses(tickets, recent or {}, window_s), now_ms, SCHEDULE)]  # fmt: skip


def test_a_person_and_their_own_bots_never_share_a_rated_table() -> None:
    """The farming path of issue 26: a guest queues with two bots it registered; two honest
    players queue too. The guest's table takes the honest players; each bot waits, then
    gets a table of its own filled with house bots."""
    queue = [ticket("me", "h:g_me"), ticket("bot1", "b:b_1", owner="g_me", enq=1),
             ticket("bot2", "b:b_2", owner="g_me", enq=2), ticket("ann", "h:g_ann", enq=3),
             ticket("bob", "h:g_bob", enq=4)]  # fmt: skip
    assert tables(queue, 1_000) == [{"me", "ann", "bob"}]
    later = tables(queue[1:3], 11_000)  # the bots, alone in the queue after the fill wait
    assert later == [{"bot1"}, {"bot2"}]


def test_two_bots_of_one_owner_never_share_a_rated_table() -> None:
    queue = [ticket("a", "b:b_a", owner="g_owner"), ticket("b", "b:b_b", owner="g_owner", enq=1),
             ticket("c", "h:g_c", enq=2), ticket("d", "h:g_d", enq=3)]  # fmt: skip
    formed = tables(queue, 1_000)
    assert formed == [{"a", "c", "d"}], formed
    assert kept_apart(queue[0], queue[1]) and not kept_apart(queue[0], queue[2])


def test_one_client_address_within_the_window_keeps_accounts_apart() -> None:
    """Two unrelated guests queued from one address: apart while the rule is on, together
    with the rule off (window 0). A holder seen from the address earlier in the window (now
    queued from another) is apart from whoever queues from it now."""
    same = [ticket("x1", "h:g_1", address="198.51.100.7"), ticket("x2", "h:g_2", address="198.51.100.7", enq=1),
            ticket("y", "h:g_3", address="203.0.113.5", enq=2), ticket("z", "h:g_4", address="203.0.113.6", enq=3)]
    assert tables(same, 1_000, window_s=3600) == [{"x1", "y", "z"}]
    assert tables(same, 1_000, window_s=0) == [{"x1", "x2", "y"}]  # the address rule off
    moved = [ticket("x1", "h:g_1", address="192.0.2.1"), ticket("x2", "h:g_2", address="198.51.100.7", enq=1),
             ticket("y", "h:g_3", address="203.0.113.5", enq=2), ticket("z", "h:g_4", address="203.0.113.6", enq=3)]
    seen = {"h:g_1": frozenset({"198.51.100.7", "192.0.2.1"})}  # g_1 used x2's address within the window
    assert tables(moved, 1_000, window_s=3600, recent=seen) == [{"x1", "y", "z"}]
    # outside the window the store returns no old address: together again
    assert tables(moved, 1_000, window_s=3600, recent={"h:g_1": frozenset({"192.0.2.1"})}) == [{"x1", "x2", "y"}]


def test_the_window_setting_is_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FENGSHENG_MM_ADDRESS_WINDOW_MS", raising=False)
    monkeypatch.delenv("FENGSHENG_MM_ADDRESS_WINDOW_S", raising=False)
    assert config.address_window_ms() == config.DEFAULT_ADDRESS_WINDOW_MS == 86_400_000
    monkeypatch.setenv("FENGSHENG_MM_ADDRESS_WINDOW_MS", "0")
    assert config.address_window_ms() == 0 and Schedule.from_env().address_window_ms == 0
    monkeypatch.setenv("FENGSHENG_MM_ADDRESS_WINDOW_MS", "7500")
    assert Schedule.from_env().address_window_ms == 7500
    for bad in ("-1", "soon", "inf", "nan"):
        monkeypatch.setenv("FENGSHENG_MM_ADDRESS_WINDOW_MS", bad)
        with pytest.raises(ValueError, match="FENGSHENG_MM_ADDRESS_WINDOW_MS"):
            config.address_window_ms()
    # the older name in seconds is refused, not ignored: every duration is *_MS now
    monkeypatch.setenv("FENGSHENG_MM_ADDRESS_WINDOW_MS", "7500")
    monkeypatch.setenv("FENGSHENG_MM_ADDRESS_WINDOW_S", "60")
    with pytest.raises(config.RenamedSetting, match="FENGSHENG_MM_ADDRESS_WINDOW_MS=60000"):
        config.address_window_ms()


def test_a_bot_streams_address_is_found_as_the_gateway_finds_a_request() -> None:
    """The bot listener reads a gRPC stream's peer (and, from a trusted proxy only, its
    forwarding metadata) with the gateway's rule."""
    plain = ClientAddress()
    assert plain(grpc_scope("ipv4:198.51.100.7:50211", [])) == "198.51.100.7"
    assert plain(grpc_scope("ipv6:[2001:db8::5]:50211", [])) == "2001:db8::5"
    forged = [("x-forwarded-for", "203.0.113.9")]
    assert plain(grpc_scope("ipv4:198.51.100.7:50211", forged)) == "198.51.100.7"  # not a trusted peer
    proxied = ClientAddress(("10.0.0.0/8",))
    assert proxied(grpc_scope("ipv4:10.1.2.3:443", [("X-Forwarded-For", b"203.0.113.9, 10.0.0.2")])) == "203.0.113.9"
    assert proxied(grpc_scope("ipv4:198.51.100.7:1", forged)) == "198.51.100.7"


class _Context:
    """What ``stream_address`` reads of a gRPC call: its peer and metadata."""

    def __init__(self, peer: str, metadata: list[tuple[str, str]]) -> None:
        self._peer, self._metadata = peer, metadata

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return self._metadata


def test_only_the_internal_listener_believes_the_gateways_address_metadata() -> None:
    """The gateway names a ``/ws/bots`` bot's address in ``fengsheng-client-address`` on the
    internal listener (service credential); on the public bot listener a bot that writes
    that metadata itself is still seen from its peer."""
    from services.client_address import CLIENT_ADDRESS_METADATA
    from services.ranked.grpc import stream_address

    claim = [("authorization", "Bearer fsb_x"), (CLIENT_ADDRESS_METADATA, "203.0.113.50")]
    rule = ClientAddress()
    assert stream_address(_Context("ipv4:127.0.0.1:4000", claim), internal=True, rule=rule) == "203.0.113.50"
    assert stream_address(_Context("ipv4:198.51.100.7:4000", claim), internal=False, rule=rule) == "198.51.100.7"
    assert stream_address(_Context("ipv4:198.51.100.7:4000", claim[:1]), internal=True, rule=rule) == "198.51.100.7"


def test_an_ipv6_client_counts_by_its_64_network() -> None:
    """One host or home holds a whole IPv6 /64 and may take any address in it: two accounts
    from one /64 share an address for the rule; IPv4 (and IPv4-mapped) addresses count as they are."""
    from services.client_address import address_key

    assert address_key("2001:db8:1:2::a") == address_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::a") != address_key("2001:db8:1:2::a")
    assert address_key("198.51.100.7") == address_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_key("198.51.100.7") != address_key("198.51.100.8")

"""Bot accounts as authors meet them (issue 17 §8): unique bot names (409 ``name_taken``,
``house...`` reserved), history of an unknown id is a 404 (a new bot's is an empty 200);
every bot has an owner, the player whose token registered it (issue 26 §1).
A real Redis, an engine server and the gateway."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
import redis
from helpers.gateway_procs import guest_bearer, register_bot, start_gateway
from helpers.processes import start_engine_server

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def http(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    url = re.sub(r"/\d*$", "", redis_url) + "/13"  # a database of its own
    rdb = redis.Redis.from_url(url)
    rdb.flushdb()
    logs = tmp_path_factory.mktemp("bot-accounts-logs")
    engine = start_engine_server(url, logs)
    gateway = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"])
    try:
        with httpx.Client(base_url=gateway.extra["url"], timeout=20) as client:
            client.rdb = rdb  # type: ignore[attr-defined]
            client.rdb_bot_address = engine.extra["bot_address"]  # type: ignore[attr-defined]
            client.engine_address = engine.address  # type: ignore[attr-defined]
            yield client
    finally:
        gateway.stop()
        engine.stop()


def test_bot_names_are_unique_and_house_names_reserved(http: httpx.Client) -> None:
    me = guest_bearer(http, "author")
    first = http.post("/api/bots", json={"name": "Unique Author"}, headers=me)
    assert first.status_code == 201, first.text
    for name in ("unique author", " UNIQUE AUTHOR ", "house", "House-heuristic-1", "housekeeper"):
        taken = http.post("/api/bots", json={"name": name}, headers=me)
        assert taken.status_code == 409, (name, taken.text)
        error = taken.json()["error"]
        assert error["status"] == 409 and error["kind"] == "name_taken" and error["message"], error
    assert http.post("/api/bots", json={"name": "Unique Author 2"}, headers=me).status_code == 201


def test_registering_a_bot_needs_a_player_token_its_owner(http: httpx.Client) -> None:
    """Issue 26 §1: every bot has an owner, whom a rated table never seats beside it. No
    token, a bot's token or a forged one: 401 and no account; the internal ``RegisterBot``
    without an owner: ``UNAUTHENTICATED``."""
    import grpc

    from fengsheng.v1 import bot_service_pb2 as bs
    from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
    from services.channels import engine_channel

    rdb: redis.Redis = http.rdb  # type: ignore[attr-defined]
    accounts = len(rdb.keys("bot:{bot}:b_*"))
    bot = register_bot(http, "owned-one")
    for headers in ({}, {"authorization": f"Bearer {bot['token']}"}, {"authorization": "Bearer junk"}):
        refused = http.post("/api/bots", json={"name": "ownerless"}, headers=headers)
        assert refused.status_code == 401, (headers, refused.text)
        assert refused.json()["error"]["code"] == "unauthenticated" and "player token" in refused.json()["error"][
            "message"]  # fmt: skip
    assert http.post("/api/bots", json={"name": "ownerless"}, params={"token": bot["token"]}).status_code == 401
    assert len(rdb.keys("bot:{bot}:b_*")) == accounts + 1  # only the owned one was made
    with engine_channel(http.engine_address) as channel, pytest.raises(grpc.RpcError) as unowned:  # type: ignore[attr-defined]
        bs_grpc.RankedServiceStub(channel).RegisterBot(bs.RegisterBotRequest(name="ownerless"), timeout=10)
    assert unowned.value.code() == grpc.StatusCode.UNAUTHENTICATED and "player token" in (unowned.value.details() or "")
    assert http.post("/api/bots", json={"name": "ownerless"}, headers=guest_bearer(http)).status_code == 201


def test_history_of_an_unknown_id_is_404_and_of_a_new_bot_empty(http: httpx.Client) -> None:
    missing = http.get("/api/ranked/players/nobody-at-all/history", params={"ladder": "bot"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found", missing.text
    assert http.get("/api/ranked/players/nobody-at-all/history").status_code == 404
    bot_id = register_bot(http, "fresh")["bot_id"]
    fresh = http.get(f"/api/ranked/players/{bot_id}/history", params={"ladder": "bot"})
    assert fresh.status_code == 200 and fresh.json()["matches"] == []
    # a bad ruleset is still the request's own fault, before any lookup
    assert http.get("/api/ranked/players/x/history", params={"ruleset": "nope"}).status_code == 422


def _guest(http: httpx.Client, name: str) -> dict[str, str]:
    token = http.post("/api/guests", json={"name": name}).json()["token"]
    return {"authorization": f"Bearer {token}"}


def test_tokens_are_listed_revoked_and_rotated_by_the_owner_only(http: httpx.Client) -> None:
    from helpers.bot_stream import pump_messages

    from fengsheng.bot import BotClient, BotError

    owner, stranger = _guest(http, "owner"), _guest(http, "stranger")
    made = register_bot(http, "managed", owner)
    bot_id, token, first_id = made["bot_id"], made["token"], made["token_id"]
    assert first_id and first_id not in token
    mine = http.get("/api/bots", headers=owner).json()["bots"]
    assert [(b["bot_id"], [t["token_id"] for t in b["tokens"]]) for b in mine] == [(bot_id, [first_id])]
    assert isinstance(mine[0]["tokens"][0]["created_ms"], int) and "token" not in mine[0]
    assert http.get("/api/bots", headers=stranger).json().get("bots", []) == []
    assert http.get("/api/bots").status_code == 401
    # someone else's player token or another bot's token: refused, nothing changes
    anon = register_bot(http, "another-author", stranger)
    for headers in (stranger, {"authorization": f"Bearer {anon['token']}"}):
        assert http.delete(f"/api/bots/{bot_id}/tokens/{first_id}", headers=headers).status_code == 403
        assert http.post(f"/api/bots/{bot_id}/tokens/rotate", headers=headers).status_code == 403
    junk = {"authorization": "Bearer junk"}
    assert http.delete(f"/api/bots/{bot_id}/tokens/{first_id}", headers=junk).status_code == 401
    # a bot manages itself with its own token
    own = http.get("/api/bots", headers={"authorization": f"Bearer {anon['token']}"}).json()["bots"]
    assert [b["bot_id"] for b in own] == [anon["bot_id"]]

    # a live stream on the old token ends, told why, when the owner rotates the token
    client = BotClient(token=token, address=http.rdb_bot_address)  # type: ignore[attr-defined]
    got = pump_messages(client)
    assert got.get(timeout=20).WhichOneof("kind") == "welcome"  # type: ignore[attr-defined]
    rotated = http.post(f"/api/bots/{bot_id}/tokens/rotate", headers=owner)
    assert rotated.status_code == 200, rotated.text
    new_token, new_id = rotated.json()["token"], rotated.json()["token_id"]
    assert new_token != token and new_id != first_id
    told = got.get(timeout=20)
    assert told.WhichOneof("kind") == "error" and told.error.kind == "revoked", told  # type: ignore[attr-defined]
    end = got.get(timeout=20)
    assert isinstance(end, BotError) and str(end).startswith("UNAUTHENTICATED"), end
    client.close()
    assert http.get("/api/bots", headers={"authorization": f"Bearer {token}"}).status_code == 401
    listed = http.get("/api/bots", headers={"authorization": f"Bearer {new_token}"}).json()["bots"]
    assert [t["token_id"] for t in listed[0]["tokens"]] == [new_id]
    # revoke: the token stops working at once; an unknown token id is a 404
    assert http.delete(f"/api/bots/{bot_id}/tokens/nope", headers=owner).status_code == 404
    left = http.delete(f"/api/bots/{bot_id}/tokens/{new_id}", headers=owner)
    assert left.status_code == 200 and left.json().get("tokens", []) == [], left.text
    assert http.get("/api/bots", headers={"authorization": f"Bearer {new_token}"}).status_code == 401


def test_a_revoked_tokens_websocket_is_told_and_closed(http: httpx.Client) -> None:
    import json

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    made = register_bot(http, "ws-revoked")
    me = {"authorization": f"Bearer {made['token']}"}
    ws_url = str(http.base_url).rstrip("/").replace("http", "ws", 1) + "/ws/bots"
    with connect(f"{ws_url}?token={made['token']}") as ws:
        assert json.loads(ws.recv(timeout=10))["welcome"]["bot_id"] == made["bot_id"]
        gone = http.delete(f"/api/bots/{made['bot_id']}/tokens/{made['token_id']}", headers=me)
        assert gone.status_code == 200, gone.text
        told = json.loads(ws.recv(timeout=10))["error"]  # the one error shape (docs/bots.md)
        assert (told["status"], told["code"], told["kind"]) == (401, "unauthenticated", "revoked"), told
        with pytest.raises(ConnectionClosed) as closed:
            while True:  # then the stream's end (its reason kept), and the close
                last = json.loads(ws.recv(timeout=10))["error"]
                assert last["status"] == 401 and "revoked" in last["message"], last
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_a_bot_manages_its_own_tokens_over_the_bot_service(http: httpx.Client) -> None:
    """A bot reaches only ``BotService`` (the bot listener): its token list, revoke and
    rotate are there, authenticated by the bearer token in the call's metadata."""
    import grpc

    from fengsheng.v1 import bot_service_pb2 as bs
    from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc

    made = register_bot(http, "grpc-tokens")
    other = register_bot(http, "grpc-tokens-other")
    with grpc.insecure_channel(http.rdb_bot_address) as channel:  # type: ignore[attr-defined]
        stub = bs_grpc.BotServiceStub(channel)

        def md(token: str) -> list[tuple[str, str]]:
            return [("authorization", f"Bearer {token}")]

        listed = stub.ListTokens(bs.OwnTokenRequest(), metadata=md(made["token"]), timeout=10)
        assert listed.bot_id == made["bot_id"] and [t.token_id for t in listed.tokens] == [made["token_id"]]
        with pytest.raises(grpc.RpcError) as no_token:
            stub.ListTokens(bs.OwnTokenRequest(), timeout=10)
        assert no_token.value.code() == grpc.StatusCode.UNAUTHENTICATED
        # another bot's token id is not this bot's: nothing of the other bot is touched
        with pytest.raises(grpc.RpcError) as foreign:
            stub.RevokeToken(bs.OwnTokenRequest(token_id=other["token_id"]), metadata=md(made["token"]), timeout=10)
        assert foreign.value.code() == grpc.StatusCode.NOT_FOUND
        assert http.get("/api/bots", headers={"authorization": f"Bearer {other['token']}"}).status_code == 200
        # rotate: a new token, shown once; the calling one stops working at once
        rotated = stub.RotateToken(bs.OwnTokenRequest(), metadata=md(made["token"]), timeout=10)
        assert rotated.bot_id == made["bot_id"] and rotated.token.startswith("fsb_") and rotated.token != made["token"]
        with pytest.raises(grpc.RpcError) as old:
            stub.ListTokens(bs.OwnTokenRequest(), metadata=md(made["token"]), timeout=10)
        assert old.value.code() == grpc.StatusCode.UNAUTHENTICATED
        listed = stub.ListTokens(bs.OwnTokenRequest(), metadata=md(rotated.token), timeout=10)
        assert [t.token_id for t in listed.tokens] == [rotated.token_id]
        # revoke its own last token: the bot can no longer authenticate
        left = stub.RevokeToken(bs.OwnTokenRequest(token_id=rotated.token_id), metadata=md(rotated.token), timeout=10)
        assert list(left.tokens) == []
        with pytest.raises(grpc.RpcError) as gone:
            stub.ListTokens(bs.OwnTokenRequest(), metadata=md(rotated.token), timeout=10)
        assert gone.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_the_sdk_wraps_the_bot_services_token_calls(http: httpx.Client) -> None:
    from fengsheng.bot import BotClient, BotError

    made = register_bot(http, "sdk-tokens")
    client = BotClient(token=made["token"], address=http.rdb_bot_address)  # type: ignore[attr-defined]
    assert [t.token_id for t in client.list_tokens().tokens] == [made["token_id"]]
    account = client.rotate_token()
    assert client.token == account.token != made["token"]
    assert [t.token_id for t in client.list_tokens().tokens] == [account.token_id]
    assert list(client.revoke_token(account.token_id).tokens) == []
    with pytest.raises(BotError, match="UNAUTHENTICATED"):
        client.list_tokens()

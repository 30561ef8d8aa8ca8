"""Joining Ray: an embedded local Ray, or a cluster named by ``ray.address``."""

from __future__ import annotations

import logging
import os
import socket

from evolve.errors import ConfigError

log = logging.getLogger("evolve.execution")
AUTH_MODE = "RAY_AUTH_MODE"  # Ray's switch: token | disabled


class ClusterLostError(ConnectionError):
    """The Ray cluster had no CPU for any game worker within ``ray.no_worker_timeout`` seconds
    (every node that could play was lost). One line; the run stops where its checkpoint is."""


def split_address(address: str) -> tuple[str, str]:
    """``host:port``, ``ray://host:port`` or ``[ipv6]:port`` -> (host, port)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, port


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail in seconds, with one line, when ``ray.address`` names a host:port nobody listens on;
    ``ray.init`` itself would retry for a minute while printing connection warnings."""
    if address == "auto":
        return
    host, port = split_address(address)
    if not host or not port.isdigit():
        raise ConfigError(
            f"ray.address={address} must be auto, host:port, [ipv6]:port or ray://host:port")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConfigError(
            f"ray.address={address}: no Ray cluster reachable there ({exc.strerror or exc}); "
            "start one with `ray start --head`, or leave ray.address unset for a local Ray"
        ) from None


def init_ray(ray, ray_cfg) -> None:
    """Connect to ``ray_cfg.address``, or start an embedded Ray with ``ray_cfg.num_cpus``;
    either way with ``ray_cfg.runtime_env`` (``evolve.execution.runtime_env``)."""
    from evolve.execution.runtime_env import for_ray

    runtime_env = for_ray(getattr(ray_cfg, "runtime_env", None))
    if runtime_env:
        shipped = {k: v for k, v in runtime_env.items() if k != "env_vars"}
        log.info("ray: the workers' runtime_env: %s", shipped or "env_vars only")
    if ray_cfg.address:
        check_reachable(ray_cfg.address)
        log.info("ray: joining the cluster at %s", ray_cfg.address)
        try:
            ray.init(address=ray_cfg.address, log_to_driver=False, logging_level=logging.WARNING,
                     runtime_env=runtime_env)
        except ConnectionError as exc:  # e.g. "auto" with no cluster running
            raise ConfigError(f"ray.address={ray_cfg.address}: {exc}") from None
    else:  # "local": a new Ray even when `ray start` left a cluster on this machine
        cpus = "every local CPU" if ray_cfg.num_cpus is None else f"{ray_cfg.num_cpus} CPUs"
        log.info("ray: starting a local Ray on %s (a few seconds)", cpus)
        quiet_token_auth()
        ray.init(address="local", num_cpus=ray_cfg.num_cpus, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.WARNING, runtime_env=runtime_env)


def quiet_token_auth() -> None:
    """Token authentication for the embedded local Ray, without Ray's warning about it.

    A new local Ray (Ray >= 2.5x) turns token authentication on by itself when
    ``RAY_AUTH_MODE`` is unset, and warns so on the console: the first thing a user saw. The
    embedded Ray lives and dies with the run, so the warning tells them nothing to act on; this
    turns the mode on the way Ray does, minus the warning (Ray creates ``~/.ray/auth_token``
    when missing). An explicit ``RAY_AUTH_MODE`` is left alone, and so is joining a cluster
    (``ray.address``): the cluster's own setting applies (docs/ray.md)."""
    if AUTH_MODE in os.environ:
        return
    try:
        from ray._private.authentication.authentication_token_setup import _enable_token_auth
    except ImportError:  # a Ray without token authentication: nothing to warn about
        return
    _enable_token_auth()


def cluster_cpus(ray) -> int:
    """CPUs of the cluster's live nodes (a lost node drops out within about a second)."""
    return int(ray.cluster_resources().get("CPU", 0))

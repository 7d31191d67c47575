"""Train the small NNUE (tools/nnue_net.py) on training positions (tools/gen_nnue_data.py) and write it
as a JJNN file for the engine's EvalFile option.

    python tools/train_nnue.py selfplay.bin [master.bin ...] -o jiangjun.jjnn [--hidden 256]
        [--epochs 30] [--batch 1024] [--lr 0.001] [--lambda 0.7] [--k 400] [--max-score 3000]
        [--score-scale 1.0] [--mirror] [--factorise] [--features plain|king-buckets]
        [--output-buckets B] [--layer L] [--max-minutes M]
        [--validation 0.1] [--patience 4] [--seed 1] [--baseline] [--check]

The fit: minimise the mean squared error between sigmoid(eval / K) and the target
lambda * sigmoid(score / K) + (1 - lambda) * result, with eval the network's centipawns, score the
search's (side to move's view) and result the game's (1 win, 0.5 draw, 0 loss for the side to move).
--score-scale multiplies the scores first: a teacher engine's centipawns are not ours (Pikafish-HCE's are
about half of our hand-crafted evaluation's), and the search's margins expect the network to speak in
ours. A file named as FILE:SCALE has its own (data of two teachers together: pk.bin:1.8 jj.bin:1).
--mirror adds each training position's left-right mirror image with the same target (the rules are
symmetric; validation stays as it is). Positions with |score| > --max-score (mates included) are left out: beyond it the sigmoid is flat and
the scores are the search's tactics rather than the position's value.

--features king-buckets trains the JJNN version 2 feature set (engine/netfile.py): the 1260 features
bucketed by the perspective's own general's palace point (6 buckets, 7560 inputs, the files mirrored
when the general is on the f-file). --factorise then trains each bucketed weight as the sum of a
bucket-specific weight, a weight of the same piece and square shared by every bucket (the plain feature
set's weight: it learns from every position, where a bucket's sees only the positions with the general
there) and the weight of its side and type; all are folded into the bucketed weights in the file.

The inputs are sparse (at most 32 of the 1260 features per perspective are active), so each
perspective's features are a sparse 0/1 matrix X and the accumulators of a batch are X @ W + b; the
gradient of W is X.T @ (gradient of the accumulators). scipy's sparse products do both in C: measured
here (batch 1024, H 256, float32) about 1 ms each, against 25 ms for numpy's gather-and-sum and 120 ms
for np.add.at. --layer L adds a hidden layer of L clipped units between the accumulators and the
output (JJNN file version 4; per output bucket with --output-buckets). The gradients are written out by
hand (`Trainer.gradients`, checked against central differences by a test);
the optimiser is Adam; W and b are kept inside the quantisation's WEIGHT_LIMIT at every step.

Validation holds out whole games (--validation of them, chosen by the seed; a game is its file and its
number there), so that positions of one game are never on both sides. After each epoch the validation
loss is measured; the best epoch's weights are kept, the step is halved when an epoch does not improve,
and training stops after --patience such epochs. --baseline prints, first, the validation loss of a
constant prediction and of our hand-crafted evaluation (Searcher.evaluate), as is and with its scale
fitted: what the network has to beat. The quantised net's output bias is calibrated on the training
positions (nnue_net.calibrate_output_bias: it takes out the mean offset that rounding the output weights
leaves). --check reports, last, how far the quantised integer evaluation (the engine's) is from the
float one on the validation positions.

Needs numpy and scipy (a development tool; the engine has no dependencies).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Optional

import numpy as np
import scipy.sparse

from engine.netfile import LAYER_MULTIPLE, MAX_LAYER, MAX_OUTPUT_BUCKETS, output_bucket
from nnue_data import SCORE_LIMIT, read_records, record_fen
from nnue_net import (MAX_PIECES, N_BUCKETS, N_INPUTS, N_INPUTS_V2, NO_FEATURE, SCALE, WEIGHT_LIMIT, FloatNet, QuantNet,
                      calibrate_output_bias, evaluate_float, evaluate_quantised, mirror_features, quantise,
                      record_features, rounding_bound, write_jjnn)

DTYPE = np.float32


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclass
class DataSet:
    """Positions ready for training: the two perspectives' active features ((n, MAX_PIECES) int16,
    padded with NO_FEATURE), the targets, and what the baselines and the check need. The sparse 0/1
    matrices the trainer multiplies by (`us`, `them`: CSR, float32 ones) are built from the features when
    first asked for, a batch's at a time in training: the whole set's, built once, took about 1 KB a
    position and did not fit in memory at ten million positions with their mirror images."""

    us_features: np.ndarray
    them_features: np.ndarray
    target: np.ndarray
    records: np.ndarray
    version: int = 1          # the feature set (JJNN version)
    factorise: bool = False   # with the virtual features (feature_matrix)

    def __len__(self) -> int:
        return len(self.target)

    def rows(self, index: "np.ndarray | slice") -> "DataSet":
        return DataSet(self.us_features[index], self.them_features[index], self.target[index],
                       self.records[index], self.version, self.factorise)

    @cached_property
    def pieces(self) -> np.ndarray:
        """The number of pieces on the board of each position (what chooses its output bucket)."""
        return np.sum(self.us_features != NO_FEATURE, axis=1)

    @cached_property
    def us(self) -> scipy.sparse.csr_matrix:
        return feature_matrix(self.us_features, self.factorise, self.version)

    @cached_property
    def them(self) -> scipy.sparse.csr_matrix:
        return feature_matrix(self.them_features, self.factorise, self.version)


#: --factorise: one virtual feature per side and piece type (whatever the square), 14 in all.
N_VIRTUAL = 14
#: The --features names and their JJNN versions.
FEATURE_SETS = {"plain": 1, "king-buckets": 2}


def n_inputs(version: int) -> int:
    return N_INPUTS if version == 1 else N_INPUTS_V2


def n_columns(version: int, factorise: bool) -> int:
    """The trainer's inputs: the engine's, and with `factorise` the virtual ones after them (version 2:
    the 1260 un-bucketed features, then the 14 of side and type)."""
    if not factorise:
        return n_inputs(version)
    return n_inputs(version) + (N_VIRTUAL if version == 1 else N_INPUTS + N_VIRTUAL)


def feature_matrix(features: np.ndarray, factorise: bool = False, version: int = 1) -> scipy.sparse.csr_matrix:
    """The (n, inputs) 0/1 matrix of (n, 32) feature arrays padded with NO_FEATURE; factorised, the
    (n, n_columns) matrix in which each piece also counts in its side and type's virtual feature and, for
    the king buckets, in its un-bucketed feature (the index within its bucket). Built in canonical form
    (each row's columns sorted and distinct, a virtual feature's value the number of its pieces), so that
    scipy need not sort and sum duplicates: that took nine tenths of the time of a batch's matrix."""
    features = np.sort(features, axis=1).astype(np.int32)      # NO_FEATURE first; one bucket per row
    present = (features != NO_FEATURE).astype(DTYPE)
    columns, values = [features], [present]
    if factorise:
        plain = features % N_INPUTS
        if version == 2:
            columns.append(N_INPUTS_V2 + plain)
            values.append(present)
        rows, slots = np.nonzero(present)
        kinds = plain[rows, slots] // 90
        virtual = np.bincount(rows * N_VIRTUAL + kinds, minlength=len(features) * N_VIRTUAL)
        columns.append(np.broadcast_to(n_columns(version, True) - N_VIRTUAL + np.arange(N_VIRTUAL),
                                       (len(features), N_VIRTUAL)))
        values.append(virtual.reshape(len(features), N_VIRTUAL).astype(DTYPE))
    columns, values = np.concatenate(columns, axis=1), np.concatenate(values, axis=1)
    kept = values != 0
    indptr = np.concatenate([[0], np.cumsum(kept.sum(axis=1))])
    return scipy.sparse.csr_matrix((values[kept], columns[kept], indptr),
                                   shape=(len(features), n_columns(version, factorise)))


def fold(net: FloatNet) -> FloatNet:
    """The network of the engine's inputs: a factorised network's virtual weights added to the weights of
    every square of their side and type and, for the king buckets, the un-bucketed weights to the same
    feature in every bucket (the accumulators are the same sums)."""
    rows = len(net.W)
    if rows in (N_INPUTS, N_INPUTS_V2):
        return net
    if rows == N_INPUTS + N_VIRTUAL:
        W = net.W[:N_INPUTS] + np.repeat(net.W[N_INPUTS:], 90, axis=0)
    else:
        shared = net.W[N_INPUTS_V2:N_INPUTS_V2 + N_INPUTS] + np.repeat(net.W[N_INPUTS_V2 + N_INPUTS:], 90, axis=0)
        W = net.W[:N_INPUTS_V2] + np.tile(shared, (N_BUCKETS, 1))
    return replace(net, W=W)


def targets(records: np.ndarray, k: float, lam: float, score_scale=1.0) -> np.ndarray:
    """The fit's target of each record (score_scale: one factor, or one per record)."""
    score01 = sigmoid(records["score"].astype(np.float64) * score_scale / k)
    result01 = (records["result"].astype(np.float64) + 1) / 2
    return (lam * score01 + (1 - lam) * result01).astype(DTYPE)


def data_file(name: str, score_scale: float) -> tuple[str, float]:
    """(path, score scale) of a data argument: FILE, or FILE:SCALE for a scale of its own."""
    path, _, scale = name.rpartition(":")
    try:
        return (path, float(scale)) if path else (name, score_scale)
    except ValueError:
        return name, score_scale


def load(names: list[str], max_score: int,
         score_scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The records of the files (data_file names) with |score| <= max_score, each one's game (file index
    << 32 | game) and each one's score scale."""
    parts, games, scales = [], [], []
    for number, name in enumerate(names):
        path, scale = data_file(name, score_scale)
        records = np.asarray(read_records(path))
        records = records[np.abs(records["score"].astype(np.int32)) <= max_score]
        parts.append(records)
        games.append((np.uint64(number) << np.uint64(32)) | records["game"].astype(np.uint64))
        scales.append(np.full(len(records), scale))
    return np.concatenate(parts), np.concatenate(games), np.concatenate(scales)


def split_by_game(games: np.ndarray, fraction: float, rng: np.random.Generator) -> np.ndarray:
    """A mask of the positions whose game is held out for validation."""
    distinct = np.unique(games)
    held = rng.permutation(distinct)[:max(1, round(len(distinct) * fraction))] if fraction > 0 else []
    return np.isin(games, held)


#: Records whose features are computed at a time (record_features' intermediates hold 90 squares each).
FEATURE_CHUNK = 1 << 20


def features_of(records: np.ndarray, version: int, mirrored: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """record_features as int16 arrays (every index of every feature set fits), a chunk at a time."""
    us = np.empty((len(records), MAX_PIECES), np.int16)
    them = np.empty_like(us)
    for start in range(0, len(records), FEATURE_CHUNK):
        part = slice(start, start + FEATURE_CHUNK)
        us[part], them[part] = record_features(records[part], version, mirrored)
    return us, them


def data_set(records: np.ndarray, k: float, lam: float, score_scale=1.0, mirror: bool = False,
             factorise: bool = False, version: int = 1) -> DataSet:
    """The positions of the records; with `mirror`, followed by their left-right mirror images; with
    `factorise`, with the virtual features (feature_matrix); of feature set `version`. score_scale: one
    factor, or one per record."""
    us, them = features_of(records, version)
    target = targets(records, k, lam, score_scale)
    if mirror:
        if version == 1:
            us_m, them_m = mirror_features(us), mirror_features(them)
        else:       # the mirror image's general may stand in another bucket: its features from its board
            us_m, them_m = features_of(records, version, mirrored=True)
        us, them = np.concatenate([us, us_m]), np.concatenate([them, them_m])
        target, records = np.concatenate([target, target]), np.concatenate([records, records])
    return DataSet(us, them, target, records, version, factorise)


def initial_net(hidden: int, rng: np.random.Generator, factorise: bool = False, version: int = 1,
                output_buckets: int = 1, layer: int = 0) -> FloatNet:
    """Small random weights: an accumulator starts near the middle of the clamp's [0, 1], where it has a
    gradient (30-odd features of standard deviation 0.05 around a bias of 0.5). Virtual weights start at 0.
    Factorised king buckets: the shared un-bucketed weights start random and the bucketed ones at 0 (each
    bucket starts as the same plain network and learns its differences from it). Output buckets start
    with the same output weights. A hidden layer's units start near the middle of their clamp too (2H
    inputs of about 0.5 with weights of standard deviation 0.3 / sqrt(2H * 0.3), around a bias of 0.5)."""
    if version == 1:
        W = rng.normal(0, 0.05, (N_INPUTS, hidden)).astype(DTYPE)
        if factorise:
            W = np.concatenate([W, np.zeros((N_VIRTUAL, hidden), DTYPE)])
    elif factorise:
        W = np.concatenate([np.zeros((N_INPUTS_V2, hidden), DTYPE), rng.normal(0, 0.05, (N_INPUTS, hidden)).astype(DTYPE),
                            np.zeros((N_VIRTUAL, hidden), DTYPE)])
    else:
        W = rng.normal(0, 0.05, (N_INPUTS_V2, hidden)).astype(DTYPE)
    b = np.full(hidden, 0.5, DTYPE)
    if layer:
        W1 = rng.normal(0, 0.3 / np.sqrt(2 * hidden * 0.3), (layer, 2 * hidden)).astype(DTYPE)
        wo = rng.normal(0, 1 / np.sqrt(layer), layer).astype(DTYPE)
        return FloatNet(W=W, b=b, wo=np.tile(wo, (output_buckets, 1)), bo=np.zeros(output_buckets, DTYPE),
                        W1=np.tile(W1, (output_buckets, 1, 1)), b1=np.full((output_buckets, layer), 0.5, DTYPE))
    wo = rng.normal(0, 1 / np.sqrt(2 * hidden), 2 * hidden).astype(DTYPE)
    if output_buckets > 1:
        return FloatNet(W=W, b=b, wo=np.tile(wo, (output_buckets, 1)), bo=np.zeros(output_buckets, DTYPE))
    return FloatNet(W=W, b=b, wo=wo, bo=0.0)


class Trainer:
    """Adam on the float network, one mini-batch at a time."""

    BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8

    def __init__(self, net: FloatNet, k: float, lr: float, weight_decay: float = 0.0) -> None:
        self.net = net
        self.k = k
        self.lr = lr
        self.weight_decay = weight_decay
        self.buckets = net.output_buckets
        self.layer = net.layer
        self.params = {"W": net.W, "b": net.b, "wo": net.wo,
                       "bo": np.array([net.bo], DTYPE) if np.ndim(net.bo) == 0 else net.bo}
        if self.layer:
            self.params.update(W1=net.W1, b1=net.b1)
        self.m = {name: np.zeros_like(p) for name, p in self.params.items()}
        self.v = {name: np.zeros_like(p) for name, p in self.params.items()}
        self.t = 0

    def _bucket(self, batch: DataSet) -> np.ndarray:
        return output_bucket(batch.pieces, self.buckets) if self.buckets > 1 else np.zeros(len(batch), np.int64)

    def forward(self, batch: DataSet) -> dict[str, np.ndarray]:
        """The batch's intermediate values: the accumulators, their clamps, (with a hidden layer) the
        units before and after theirs, each position's bucket, and the prediction."""
        p = self.params
        h = len(p["b"])
        values = {"acc_us": batch.us @ p["W"] + p["b"], "acc_them": batch.them @ p["W"] + p["b"],
                  "bucket": self._bucket(batch)}
        a_us, a_them = np.clip(values["acc_us"], 0, 1), np.clip(values["acc_them"], 0, 1)
        rows, bucket = np.arange(len(a_us)), values["bucket"]
        if self.layer:
            both = np.concatenate([a_us, a_them], axis=1)
            every = both @ p["W1"].reshape(-1, 2 * h).T          # each bucket's units (a small product)
            z = every.reshape(len(both), self.buckets, self.layer)[rows, bucket] + p["b1"][bucket]
            units = np.clip(z, 0, 1)
            out = np.einsum("ij,ij->i", units, p["wo"][bucket]) + p["bo"][bucket]
            values.update(both=both, z=z, units=units)
        elif self.buckets == 1:
            out = a_us @ p["wo"][:h] + a_them @ p["wo"][h:] + p["bo"][0]
        else:       # every bucket's output (a small product), then each position's own bucket's
            every = a_us @ p["wo"][:, :h].T + a_them @ p["wo"][:, h:].T + p["bo"]
            out = every[rows, bucket]
        values.update(a_us=a_us, a_them=a_them, prediction=sigmoid(out * (SCALE / self.k)))
        return values

    def loss(self, data: DataSet, chunk: int = 8192) -> float:
        total = 0.0
        for i in range(0, len(data), chunk):
            part = data.rows(slice(i, i + chunk))
            prediction = self.forward(part)["prediction"]
            total += float(np.sum((prediction - part.target) ** 2))
        return total / max(1, len(data))

    def step(self, batch: DataSet) -> float:
        """One Adam step on the batch; returns the batch's loss before it."""
        loss, grads = self.gradients(batch)
        self._apply(grads)
        return loss

    def gradients(self, batch: DataSet) -> tuple[float, dict[str, np.ndarray]]:
        """The batch's mean squared error and its gradient for each parameter."""
        p = self.params
        h = len(p["b"])
        values = self.forward(batch)
        prediction, bucket = values["prediction"], values["bucket"]
        error = prediction - batch.target
        # d loss / d out: the mean of (prediction - target)^2 through the sigmoid of out * SCALE / K.
        d_out = (2 / len(error)) * error * prediction * (1 - prediction) * (SCALE / self.k)
        if self.layer:
            grads, d_a_us, d_a_them = self._layer_gradients(values, d_out)
        elif self.buckets == 1:
            wo = p["wo"]
            grads = {"wo": np.concatenate([values["a_us"].T @ d_out, values["a_them"].T @ d_out]),
                     "bo": np.array([d_out.sum()], DTYPE)}
            d_a_us, d_a_them = d_out[:, None] * wo[:h], d_out[:, None] * wo[h:]
        else:       # each position's gradient goes to its own bucket's output weights (d_buckets: one-hot)
            wo = p["wo"][bucket]
            d_buckets = np.zeros((len(d_out), self.buckets), DTYPE)
            d_buckets[np.arange(len(d_out)), bucket] = d_out
            grads = {"wo": np.concatenate([d_buckets.T @ values["a_us"], d_buckets.T @ values["a_them"]], axis=1),
                     "bo": d_buckets.sum(axis=0)}
            d_a_us, d_a_them = d_out[:, None] * wo[:, :h], d_out[:, None] * wo[:, h:]
        # The clamp passes the gradient only strictly inside (0, 1).
        acc_us, acc_them = values["acc_us"], values["acc_them"]
        d_us = d_a_us * ((acc_us > 0) & (acc_us < 1))
        d_them = d_a_them * ((acc_them > 0) & (acc_them < 1))
        grads["W"] = batch.us.T @ d_us + batch.them.T @ d_them
        grads["b"] = d_us.sum(axis=0) + d_them.sum(axis=0)
        return float(np.mean(error ** 2)), grads

    def _layer_gradients(self, values: dict[str, np.ndarray], d_out: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray]:
        """The gradients of the hidden layer's and the output's parameters, and of the clipped
        accumulators (the side to move's, the other's). Each position's gradient goes to its own bucket's
        weights: d_every holds it in its bucket's L columns of the (n, B * L) units of every bucket."""
        p = self.params
        h = len(p["b"])
        n, bucket = len(d_out), values["bucket"]
        d_buckets = np.zeros((n, self.buckets), DTYPE)
        d_buckets[np.arange(n), bucket] = d_out
        z = values["z"]
        d_z = d_out[:, None] * p["wo"][bucket] * ((z > 0) & (z < 1))       # through the units' clamp
        d_every = np.zeros((n, self.buckets, self.layer), DTYPE)
        d_every[np.arange(n), bucket] = d_z
        d_every = d_every.reshape(n, -1)
        grads = {"wo": (d_buckets[:, :, None] * values["units"][:, None, :]).sum(axis=0),
                 "bo": d_buckets.sum(axis=0),
                 "W1": (d_every.T @ values["both"]).reshape(p["W1"].shape),
                 "b1": d_every.sum(axis=0).reshape(p["b1"].shape)}
        d_both = d_every @ p["W1"].reshape(-1, 2 * h)
        return grads, d_both[:, :h], d_both[:, h:]

    def _apply(self, grads: dict[str, np.ndarray]) -> None:
        p = self.params
        self.t += 1
        correction1 = 1 - self.BETA1 ** self.t
        correction2 = 1 - self.BETA2 ** self.t
        for name, grad in grads.items():
            grad = np.asarray(grad, dtype=DTYPE)
            m, v = self.m[name], self.v[name]
            m *= self.BETA1
            m += (1 - self.BETA1) * grad
            v *= self.BETA2
            v += (1 - self.BETA2) * grad * grad
            p[name] -= self.lr * (m / correction1) / (np.sqrt(v / correction2) + self.EPSILON)
        # Decoupled weight decay (AdamW) of the input weights: they are most of the parameters, and each
        # is seen only in positions with its piece on its square.
        if self.weight_decay:
            p["W"] *= 1 - self.lr * self.weight_decay
        np.clip(p["W"], -WEIGHT_LIMIT, WEIGHT_LIMIT, out=p["W"])
        np.clip(p["b"], -WEIGHT_LIMIT, WEIGHT_LIMIT, out=p["b"])

    def snapshot(self) -> FloatNet:
        """The network as the engine computes it (folded, when factorised)."""
        p = self.params
        bo = float(p["bo"][0]) if self.buckets == 1 and not self.layer else p["bo"].copy()
        layer = (p["W1"].copy(), p["b1"].copy()) if self.layer else (None, None)
        return fold(FloatNet(p["W"].copy(), p["b"].copy(), p["wo"].copy(), bo, *layer))


def train(trainer: Trainer, training: DataSet, validation: DataSet, epochs: int, batch_size: int,
          patience: int, rng: np.random.Generator, log=print, max_minutes: float = 0.0) -> FloatNet:
    """Mini-batch epochs with the validation loss after each; the best epoch's net. `max_minutes` (0: no
    limit): no epoch starts after that many minutes."""
    started = time.perf_counter()
    best_loss = trainer.loss(validation) if len(validation) else float("inf")
    best = trainer.snapshot()
    log(f"epoch 0: train {trainer.loss(training):.6f} val {best_loss:.6f}")
    bad_epochs = 0
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        shuffled = training.rows(rng.permutation(len(training)))
        total = 0.0
        for i in range(0, len(shuffled), batch_size):
            batch = shuffled.rows(slice(i, i + batch_size))
            total += trainer.step(batch) * len(batch)
        seconds = time.perf_counter() - start
        val_loss = trainer.loss(validation) if len(validation) else float("nan")
        improved = not len(validation) or val_loss < best_loss
        if improved:
            best_loss, best, bad_epochs = val_loss, trainer.snapshot(), 0
        else:
            bad_epochs += 1
            trainer.lr /= 2
        log(f"epoch {epoch}: train {total / len(training):.6f} val {val_loss:.6f}"
            f"{' (best)' if improved else f', step halved to {trainer.lr:.2g}'}  "
            f"{len(training) / seconds:,.0f} positions/s, {seconds:.1f} s")
        if bad_epochs >= patience:
            log(f"stopped: {patience} epochs without improvement")
            break
        if max_minutes and time.perf_counter() - started >= 60 * max_minutes and epoch < epochs:
            log(f"stopped: the time limit of {max_minutes:g} minutes")
            break
    return best


def hce_evaluations(records: np.ndarray) -> np.ndarray:
    """Our hand-crafted evaluation of each record (centipawns, side to move's view)."""
    from engine import _core
    from engine.position import Position

    searcher = _core.Searcher(1, 1)
    return np.array([searcher.evaluate(Position(record_fen(r)).kernel_board) for r in records], np.float64)


def baselines(training: DataSet, validation: DataSet, k: float, log=print) -> None:
    """The validation loss of a constant (the training targets' mean) and of the HCE."""
    target = validation.target.astype(np.float64)
    constant = float(np.mean(training.target))
    log(f"baseline: constant {constant:.3f}: val {np.mean((target - constant) ** 2):.6f}")
    hce = hce_evaluations(validation.records)
    scales = np.arange(0.2, 3.01, 0.05)
    losses = [np.mean((target - sigmoid(s * hce / k)) ** 2) for s in scales]
    best = int(np.argmin(losses))
    log(f"baseline: HCE (Searcher.evaluate): val {np.mean((target - sigmoid(hce / k)) ** 2):.6f}; "
        f"scaled by {scales[best]:.2f} (fitted on the validation set) {losses[best]:.6f}")


#: Training positions the output bias is calibrated on (nnue_net.calibrate_output_bias).
CALIBRATION_POSITIONS = 20000


def quantised(net: FloatNet, training: DataSet) -> QuantNet:
    """The net quantised, its output bias calibrated on (a sample of) the training positions."""
    us, them = record_features(training.records[:CALIBRATION_POSITIONS], training.version)
    return calibrate_output_bias(net, quantise(net), us, them)


def check(net: FloatNet, qnet: QuantNet, data: DataSet, log=print) -> tuple[float, float, float]:
    """Max, mean and mean signed (float - quantised) centipawns over the positions, logged with the
    worst-case bound of the rounding."""
    us, them = record_features(data.records, data.version)
    difference = evaluate_float(net, us, them) - evaluate_quantised(qnet, us, them)
    largest, mean, signed = np.abs(difference).max(), np.abs(difference).mean(), difference.mean()
    log(f"check: quantised vs float on {len(difference)} positions: max {largest:.1f} cp, "
        f"mean {mean:.2f} cp, mean signed {signed:+.2f} cp (worst-case bound {rounding_bound(net):.0f} cp)")
    return float(largest), float(mean), float(signed)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", help="training-position files (tools/gen_nnue_data.py), each FILE "
                                                "or FILE:SCALE (its own --score-scale)")
    parser.add_argument("-o", "--output", required=True, help="JJNN file to write")
    parser.add_argument("--hidden", type=int, default=256, help="hidden units per perspective")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lambda", dest="lam", type=float, default=0.7, help="weight of the score")
    parser.add_argument("--k", type=float, default=400.0, help="centipawns per unit of the sigmoid")
    parser.add_argument("--score-scale", type=float, default=1.0,
                        help="multiply the scores by this first (a teacher's centipawns into ours)")
    parser.add_argument("--mirror", action="store_true", help="train on the mirror images too")
    parser.add_argument("--factorise", action="store_true",
                        help="train a weight per side and piece type beside those per square (folded in)")
    parser.add_argument("--features", choices=sorted(FEATURE_SETS), default="plain",
                        help="plain (JJNN version 1) or king-buckets (version 2: bucketed by the own general)")
    parser.add_argument("--output-buckets", type=int, default=1,
                        help="output weights per range of the number of pieces (8: Stockfish's; JJNN file version 3)")
    parser.add_argument("--layer", type=int, default=0,
                        help="a hidden layer of this many units before the output (JJNN file version 4; 0: none)")
    parser.add_argument("--max-minutes", type=float, default=0.0,
                        help="start no epoch after this many minutes (0: no limit)")
    parser.add_argument("--max-score", type=int, default=3000, help=f"leave out |score| above (mates: {SCORE_LIMIT})")
    parser.add_argument("--weight-decay", type=float, default=0.0, help="decoupled decay of the input weights")
    parser.add_argument("--validation", type=float, default=0.1, help="fraction of games held out")
    parser.add_argument("--patience", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", action="store_true", help="print the constant and HCE baselines")
    parser.add_argument("--check", action="store_true", help="compare quantised and float evaluations")
    options = parser.parse_args(argv)
    if not 1 <= options.output_buckets <= MAX_OUTPUT_BUCKETS:
        parser.error(f"--output-buckets {options.output_buckets}: it must be 1..{MAX_OUTPUT_BUCKETS}")
    if not (0 <= options.layer <= MAX_LAYER and options.layer % LAYER_MULTIPLE == 0):
        parser.error(f"--layer {options.layer}: it must be 0..{MAX_LAYER}, a multiple of {LAYER_MULTIPLE}")
    log = lambda line: print(line, file=sys.stderr, flush=True)      # noqa: E731

    rng = np.random.default_rng(options.seed)
    records, games, scales = load(options.data, options.max_score, options.score_scale)
    held = split_by_game(games, options.validation, rng)
    version = FEATURE_SETS[options.features]
    training = data_set(records[~held], options.k, options.lam, scales[~held], options.mirror,
                        options.factorise, version)
    validation = data_set(records[held], options.k, options.lam, scales[held], factorise=options.factorise,
                          version=version)
    log(f"{len(training)} training positions{' (with their mirror images)' if options.mirror else ''} "
        f"of {len(np.unique(games[~held]))} games, "
        f"{len(validation)} validation positions of {len(np.unique(games[held]))} games; H = {options.hidden}, "
        f"features {options.features}{' (factorised)' if options.factorise else ''}"
        f"{f', a hidden layer of {options.layer}' if options.layer else ''}")
    if options.baseline:
        baselines(training, validation, options.k, log)
    trainer = Trainer(initial_net(options.hidden, rng, options.factorise, version, options.output_buckets,
                                  options.layer),
                      options.k, options.lr, options.weight_decay)
    net = train(trainer, training, validation, options.epochs, options.batch, options.patience, rng, log,
                options.max_minutes)
    qnet = quantised(net, training)
    write_jjnn(options.output, qnet)
    log(f"wrote {options.output}")
    if options.check:
        check(net, qnet, validation if len(validation) else training, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The whole recipe of the shipped `learned` weights for one game, as one command:
#   pip install '.[train]' && tools/train_learned.sh podkidnoy|perevodnoy
# Each step is a command of docs/rl.md ("Training: one command"); this runs them in order and
# writes src/bito/bots/weights/learned_<variant>_2p.npz with its curves under docs/data/.
# Budget: about 40 CPU-minutes for podkidnoy (two rounds), 15 for perevodnoy (one round), on
# two cores; the stages' --minutes are wall-clock, so a slower machine trains for fewer steps.
set -euo pipefail
variant=${1:-}
case "$variant" in
    podkidnoy) deals=6700 ;;
    perevodnoy) deals=6300 ;;
    *) echo "usage: $0 podkidnoy|perevodnoy" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
python -m bito.train.learned --variant "$variant" --labels "data/labels/$variant" \
    --label-deals "$deals" --label-workers 2 --imitate-epochs 8 \
    --lr 1e-4 --entropy 0.003 --steps 1000000 --minutes 25 --eval-minutes 4
[ "$variant" = podkidnoy ] || exit 0
# podkidnoy's second round: PPO continued, then the teacher labels the positions the network
# itself reaches (DAgger), the network imitates them and PPO polishes it
weights=src/bito/bots/weights/learned_podkidnoy_2p.npz
mkdir -p data/round2
python -m bito.train.learned --variant podkidnoy --init "$weights" \
    --lr 1e-4 --entropy 0.003 --seed 1 --steps 1000000 --minutes 24 \
    --eval-minutes 3.5 --eval-pairs 300 \
    --out data/round2/ppo.npz --curve docs/data/learned_podkidnoy_2p_round2_ppo.jsonl
python -m bito.train.teacher --variant podkidnoy --student data/round2/ppo.npz \
    --first-seed 2000000 --deals 5900 --out data/labels/podkidnoy-dagger &
first=$!
python -m bito.train.teacher --variant podkidnoy --student data/round2/ppo.npz \
    --first-seed 2100000 --deals 5950 --out data/labels/podkidnoy-dagger
wait "$first"
python -m bito.train.learned --variant podkidnoy --init data/round2/ppo.npz \
    --labels data/labels/podkidnoy-dagger --imitate-epochs 8 \
    --lr 1e-4 --entropy 0.003 --seed 2 --steps 1000000 --minutes 5 \
    --eval-minutes 2 --eval-pairs 300 --curve docs/data/learned_podkidnoy_2p_round2.jsonl

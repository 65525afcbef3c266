;; Where the files' patches start in `git diff -p` output (see section-starts.ts): every
;; "\ndiff --git " in a piece of it, sixteen bytes at a time.
;; Assembled into section-starts-wasm.ts by `npm run wasm`; tests/emit/section-starts.test.ts
;; fails when the two differ.
;;
;; The caller copies up to `capacity` bytes to `input` and calls `find` with their count;
;; it writes the offset of every marker lying wholly in them at `found` (32-bit, in order)
;; and returns how many. A marker is a newline followed by a `d`: both are looked for in
;; sixteen bytes at once (a diff's lines seldom start with a `d`), and each such place is
;; then compared with the whole marker, as two loads: "\ndiff --" and "git ".
(module
  (memory (export "memory") 2)

  (global (export "capacity") i32 (i32.const 65536))
  (global $input (export "input") i32 (i32.const 0))
  (global $found (export "found") i32 (i32.const 65536))

  ;; Whether the marker starts at `at` and ends by `end`.
  (func $marker (param $at i32) (param $end i32) (result i32)
    (i32.and
      (i32.le_u (i32.add (local.get $at) (i32.const 12)) (local.get $end))
      (i32.and
        (i64.eq (i64.load (local.get $at)) (i64.const 0x2d2d20666669640a))
        (i32.eq (i32.load offset=8 (local.get $at)) (i32.const 0x20746967)))))

  (func (export "find") (param $length i32) (result i32)
    (local $at i32) (local $end i32) (local $count i32) (local $mask i32) (local $place i32)
    (local.set $at (global.get $input))
    (local.set $end (i32.add (global.get $input) (local.get $length)))
    ;; Sixteen places at a time, while the byte after the last of them is in the piece.
    (block $blocksDone
      (loop $blocks
        (br_if $blocksDone (i32.gt_u (i32.add (local.get $at) (i32.const 17)) (local.get $end)))
        (local.set $mask
          (i8x16.bitmask
            (v128.and
              (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x0a)))
              (i8x16.eq (v128.load offset=1 (local.get $at)) (i8x16.splat (i32.const 0x64))))))
        (block $candidatesDone
          (loop $candidates
            (br_if $candidatesDone (i32.eqz (local.get $mask)))
            (local.set $place (i32.add (local.get $at) (i32.ctz (local.get $mask))))
            (if (call $marker (local.get $place) (local.get $end))
              (then
                (i32.store
                  (i32.add (global.get $found) (i32.shl (local.get $count) (i32.const 2)))
                  (i32.sub (local.get $place) (global.get $input)))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (br $candidates)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $blocks)))
    ;; The last places, one at a time.
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.gt_u (i32.add (local.get $at) (i32.const 12)) (local.get $end)))
        (if (call $marker (local.get $at) (local.get $end))
          (then
            (i32.store
              (i32.add (global.get $found) (i32.shl (local.get $count) (i32.const 2)))
              (i32.sub (local.get $at) (global.get $input)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $tail)))
    (local.get $count)))

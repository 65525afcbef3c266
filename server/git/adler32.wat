;; Adler-32 (see adler32.ts), thirty-two bytes at a time.
;; Assembled into adler32-wasm.ts by `npm run wasm`; tests/emit/adler32.test.ts
;; fails when the two differ.
;;
;; The caller copies up to `capacity` bytes to `input` and calls `update` with the
;; checksum so far (1 before any byte) and their count; it returns the checksum with them.
;; Thirty-two bytes add their sum to a, and to b thirty-two times the a before them plus
;; the bytes weighted 32 down to 1. Four lanes keep these sums apart; they are added up
;; and reduced modulo 65521 every 5,536 bytes at most: zlib reduces every 5,552, the most
;; b can take without passing 2^32 when every byte is 0xff, and 5,536 is 32 × 173.
(module
  (memory (export "memory") 1)

  (global (export "capacity") i32 (i32.const 65536))
  (global $input (export "input") i32 (i32.const 0))

  (func $sum (param $lanes v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $lanes)) (i32x4.extract_lane 1 (local.get $lanes)))
      (i32.add (i32x4.extract_lane 2 (local.get $lanes)) (i32x4.extract_lane 3 (local.get $lanes)))))

  (func (export "update") (param $adler i32) (param $length i32) (result i32)
    (local $a i32) (local $b i32) (local $at i32) (local $end i32) (local $blockEnd i32)
    (local $bytes v128) (local $next v128) (local $sums v128) (local $before v128) (local $weighted v128)
    (local.set $a (i32.and (local.get $adler) (i32.const 0xffff)))
    (local.set $b (i32.shr_u (local.get $adler) (i32.const 16)))
    (local.set $at (global.get $input))
    (local.set $end
      (i32.add (global.get $input) (i32.and (local.get $length) (i32.const -32))))
    (block $blocksDone
      (loop $blocks
        (br_if $blocksDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $blockEnd
          (select
            (local.get $end)
            (i32.add (local.get $at) (i32.const 5536))
            (i32.lt_u (i32.sub (local.get $end) (local.get $at)) (i32.const 5536))))
        ;; Every byte of the block adds the a it starts with to b once.
        (local.set $b
          (i32.add (local.get $b)
            (i32.mul (local.get $a) (i32.sub (local.get $blockEnd) (local.get $at)))))
        (local.set $sums (v128.const i32x4 0 0 0 0))
        (local.set $before (v128.const i32x4 0 0 0 0))
        (local.set $weighted (v128.const i32x4 0 0 0 0))
        (loop $steps
          (local.set $bytes (v128.load (local.get $at)))
          (local.set $next (v128.load offset=16 (local.get $at)))
          (local.set $before (i32x4.add (local.get $before) (local.get $sums)))
          (local.set $sums
            (i32x4.add (local.get $sums)
              (i32x4.extadd_pairwise_i16x8_u
                (i16x8.add
                  (i16x8.extadd_pairwise_i8x16_u (local.get $bytes))
                  (i16x8.extadd_pairwise_i8x16_u (local.get $next))))))
          (local.set $weighted
            (i32x4.add (local.get $weighted)
              (i32x4.add
                (i32x4.add
                  (i32x4.dot_i16x8_s
                    (i16x8.extend_low_i8x16_u (local.get $bytes))
                    (v128.const i16x8 32 31 30 29 28 27 26 25))
                  (i32x4.dot_i16x8_s
                    (i16x8.extend_high_i8x16_u (local.get $bytes))
                    (v128.const i16x8 24 23 22 21 20 19 18 17)))
                (i32x4.add
                  (i32x4.dot_i16x8_s
                    (i16x8.extend_low_i8x16_u (local.get $next))
                    (v128.const i16x8 16 15 14 13 12 11 10 9))
                  (i32x4.dot_i16x8_s
                    (i16x8.extend_high_i8x16_u (local.get $next))
                    (v128.const i16x8 8 7 6 5 4 3 2 1))))))
          (local.set $at (i32.add (local.get $at) (i32.const 32)))
          (br_if $steps (i32.lt_u (local.get $at) (local.get $blockEnd))))
        (local.set $b
          (i32.add (local.get $b)
            (i32.add
              (i32.shl (call $sum (local.get $before)) (i32.const 5))
              (call $sum (local.get $weighted)))))
        (local.set $a (i32.add (local.get $a) (call $sum (local.get $sums))))
        (local.set $a (i32.rem_u (local.get $a) (i32.const 65521)))
        (local.set $b (i32.rem_u (local.get $b) (i32.const 65521)))
        (br $blocks)))
    ;; The last bytes, fewer than thirty-two, one at a time.
    (local.set $end (i32.add (global.get $input) (local.get $length)))
    (block $bytesDone
      (loop $tail
        (br_if $bytesDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $a (i32.add (local.get $a) (i32.load8_u (local.get $at))))
        (local.set $b (i32.add (local.get $b) (local.get $a)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $tail)))
    (i32.or
      (i32.shl (i32.rem_u (local.get $b) (i32.const 65521)) (i32.const 16))
      (i32.rem_u (local.get $a) (i32.const 65521)))))

;; The JSON string escape of UTF-8 text (see json-bytes.ts), sixteen bytes at a time.
;; Assembled into json-bytes-wasm.ts by `npm run wasm`; tests/emit/json-bytes.test.ts
;; fails when the two differ.
;;
;; The caller copies up to `capacity` bytes of text to `input`, calls `escape` with
;; their count and reads the escaped text at `output`; `escape` returns its length.
;; Diffs are mostly plain bytes with a newline every few dozen, so a block with nothing
;; to escape is stored whole, and a block with something is stored whole too, then the
;; output continues from the first byte to escape, over what followed it.
(module
  (memory (export "memory") 15)

  ;; Memory: escapes at 0, then the text with room for a padding block, then its escape
  ;; at six bytes a byte (`\u00XX`) with room for a block stored past its end.
  (global (export "capacity") i32 (i32.const 131072))
  (global $input (export "input") i32 (i32.const 1024))
  (global $output (export "output") i32 (i32.const 132112))

  ;; Lines of the text that start with `+` and with `-` (a diff's added and deleted lines),
  ;; counted on the way: every newline is a byte to escape, so the byte after it is looked
  ;; at there. `lineStart` says the text's next byte starts a line (set by the caller for
  ;; the first piece, and here when a piece ends with a newline).
  (global $additions (export "additions") (mut i32) (i32.const 0))
  (global $deletions (export "deletions") (mut i32) (i32.const 0))
  (global $lineStart (export "lineStart") (mut i32) (i32.const 0))

  (func $count (param $byte i32)
    (global.set $additions (i32.add (global.get $additions) (i32.eq (local.get $byte) (i32.const 0x2b))))
    (global.set $deletions (i32.add (global.get $deletions) (i32.eq (local.get $byte) (i32.const 0x2d)))))

  ;; The escape of each byte to escape, 8 bytes apiece: its text padded to seven bytes,
  ;; then its length. Control characters 0x00-0x1f, then the quote, then the backslash.
  (data (i32.const 0)
    "\\u0000\00\06" "\\u0001\00\06" "\\u0002\00\06" "\\u0003\00\06"
    "\\u0004\00\06" "\\u0005\00\06" "\\u0006\00\06" "\\u0007\00\06"
    "\\b\00\00\00\00\00\02" "\\t\00\00\00\00\00\02" "\\n\00\00\00\00\00\02" "\\u000b\00\06"
    "\\f\00\00\00\00\00\02" "\\r\00\00\00\00\00\02" "\\u000e\00\06" "\\u000f\00\06"
    "\\u0010\00\06" "\\u0011\00\06" "\\u0012\00\06" "\\u0013\00\06"
    "\\u0014\00\06" "\\u0015\00\06" "\\u0016\00\06" "\\u0017\00\06"
    "\\u0018\00\06" "\\u0019\00\06" "\\u001a\00\06" "\\u001b\00\06"
    "\\u001c\00\06" "\\u001d\00\06" "\\u001e\00\06" "\\u001f\00\06"
    "\\\"\00\00\00\00\00\02" "\\\\\00\00\00\00\00\02")

  (func (export "escape") (param $length i32) (result i32)
    (local $from i32) (local $end i32) (local $to i32)
    (local $block v128) (local $found i32) (local $byte i32) (local $escape i32)
    (local.set $from (global.get $input))
    (local.set $end (i32.add (global.get $input) (local.get $length)))
    (local.set $to (global.get $output))
    (if (local.get $length)
      (then
        (if (global.get $lineStart) (then (call $count (i32.load8_u (local.get $from)))))
        (global.set $lineStart (i32.const 0))))
    ;; Spaces after the text, so the last block needs no check of its own: they are
    ;; never escaped, and what they add to the output is taken back at the end.
    (v128.store (local.get $end) (i8x16.splat (i32.const 0x20)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $from) (local.get $end)))
        (local.set $block (v128.load (local.get $from)))
        (v128.store (local.get $to) (local.get $block))
        (local.set $found
          (i8x16.bitmask
            (v128.or
              (i8x16.lt_u (local.get $block) (i8x16.splat (i32.const 0x20)))
              (v128.or
                (i8x16.eq (local.get $block) (i8x16.splat (i32.const 0x22)))
                (i8x16.eq (local.get $block) (i8x16.splat (i32.const 0x5c)))))))
        (if (i32.eqz (local.get $found))
          (then
            (local.set $from (i32.add (local.get $from) (i32.const 16)))
            (local.set $to (i32.add (local.get $to) (i32.const 16)))
            (br $blocks)))
        ;; Keep the bytes before the first byte to escape, then write its escape.
        (local.set $found (i32.ctz (local.get $found)))
        (local.set $byte (i32.load8_u (i32.add (local.get $from) (local.get $found))))
        ;; A newline: count the line it starts, or leave that to the next piece.
        (if (i32.eq (local.get $byte) (i32.const 0x0a))
          (then
            (if (i32.lt_u (i32.add (i32.add (local.get $from) (local.get $found)) (i32.const 1)) (local.get $end))
              (then (call $count (i32.load8_u offset=1 (i32.add (local.get $from) (local.get $found)))))
              (else (global.set $lineStart (i32.const 1))))))
        (local.set $to (i32.add (local.get $to) (local.get $found)))
        (local.set $escape
          (i32.shl
            (select
              (local.get $byte)
              (i32.add (i32.const 32) (i32.eq (local.get $byte) (i32.const 0x5c)))
              (i32.lt_u (local.get $byte) (i32.const 0x20)))
            (i32.const 3)))
        (i64.store (local.get $to) (i64.load (local.get $escape)))
        (local.set $to (i32.add (local.get $to) (i32.load8_u offset=7 (local.get $escape))))
        (local.set $from (i32.add (i32.add (local.get $from) (local.get $found)) (i32.const 1)))
        (br $blocks)))
    (i32.sub
      (i32.sub (local.get $to) (global.get $output))
      (i32.sub (local.get $from) (local.get $end)))))

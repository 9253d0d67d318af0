#!/usr/bin/env bash
# Regenerates chinese-radicals.pdf: Chinese text printed by Chromium in Noto Sans CJK SC. The font gives a radical and
# its ideograph one glyph, and the PDF's ToUnicode map names the radical: pdf.js reads 鹿特丹 as ⿅特丹 (Kangxi
# Radicals, U+2F00–U+2FD5) and 门 as ⻔ (CJK Radicals Supplement, U+2E80–U+2EFF). pdf-parser.test.ts checks the raw
# text layer still has them and the parsed text does not. Run once by hand; the output is committed and the tests never
# need these tools. Needs: chromium, fonts-noto-cjk.
#   page 1: customs filing; page 2: the Rotterdam route, electronics, door-to-door, the Yangtze line, cars.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chromium="${CHROMIUM:-chromium}"

cat > "$work/radicals.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><title>海运指南</title>
<style>
@page { size: A4; margin: 20mm; }
body { font-family: 'Noto Sans CJK SC'; font-size: 12pt; line-height: 1.6; }
h1 { font-size: 20pt; }
.page { page-break-before: always; }
</style></head><body>
<h1>海关申报</h1>
<p>所有进口货物必须在到港前向海关申报，并提供商业发票和装箱单。</p>
<div class="page"></div>
<h1>欧洲航线</h1>
<p>从上海到鹿特丹的海运大约需要三十天。</p>
<p>电子产品和汽车零件用集装箱运输，门到门服务由长江航运公司提供。</p>
<p>冷藏箱里的鱼和马肉要在港口检验。</p>
</body></html>
HTML

"$chromium" --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$work/radicals.pdf" \
  "file://$work/radicals.html" >/dev/null 2>&1
cp "$work/radicals.pdf" "$here/chinese-radicals.pdf"

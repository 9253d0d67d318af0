#!/usr/bin/env bash
# Regenerates the PDF and DOCX documents of the sample knowledge base in rag_data/ (the .md/.html/.txt documents
# there are written by hand). Run once by hand; the outputs are committed. Needs libreoffice-writer (headless),
# fonts-dejavu and fonts-noto-cjk.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kb="$(cd "$here/../../../../rag_data" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export HOME="$work"
BREAK='<p style="page-break-before: always"></p>'
convert() { soffice --headless --infilter="HTML (StarWriter)" --convert-to "$1" --outdir "$work/out" "$2" >/dev/null; }

cat > en-product-safety.html <<EOF
<html><head><meta charset="utf-8"><title>Product Safety and Compliance</title></head><body style="font-family: DejaVu Sans">
<h1>Product Safety and Compliance</h1>
<p>Harbor Line Trading sells electrical goods, toys and housewares in the European Union. The quality department
checks the compliance file of every product before the first order is placed with a supplier.</p>
<h2>CE marking</h2>
<p>Electrical products need the CE mark, an EU declaration of conformity and test reports under the Low Voltage
Directive and the EMC Directive. The declaration names Harbor Line Trading as the importer.</p>
<h2>Toys</h2>
<p>Toys must meet EN 71. Toys for children under three years must not contain small parts. Every carton carries the
age warning in the language of the destination country.</p>
$BREAK
<h1>Batteries and Dangerous Goods</h1>
<p>Lithium batteries ship only with a UN38.3 test summary and a dangerous goods declaration. Damaged or swollen
batteries are never returned by air; the warehouse stores them in the fire-proof cabinet and arranges disposal.</p>
<h2>Product recalls</h2>
<p>When a customer reports a safety problem, the quality manager opens an investigation within 24 hours. If the
risk is confirmed, sales stops the item, the service desk contacts every customer who bought it and the authorities
are informed through the Safety Gate portal.</p>
</body></html>
EOF

cat > zh-haiguan-shenbao.html <<EOF
<html><head><meta charset="utf-8"><title>海关申报指南</title></head><body style="font-family: 'Noto Sans CJK SC'">
<h1>海关申报指南</h1>
<p>本指南说明港航贸易有限公司进口货物的海关申报流程。所有进口货物必须在到港前向海关申报。</p>
<h2>申报材料</h2>
<p>报关员需要提供商业发票、装箱单、提单和合同。享受协定税率的货物还需要提供原产地证书。</p>
<h2>商品归类</h2>
<p>每种商品都要按照海关商品编码归类。编码由采购部确认，报关行不得自行更改。</p>
$BREAK
<h1>查验与放行</h1>
<p>海关可能对货物进行查验。被查验的集装箱通常需要多等两个工作日。海关放行后，仓库才能提货。</p>
<h2>退运货物</h2>
<p>因质量问题需要退货给国外供应商的商品，按退运货物向海关申报，可以申请退还已缴纳的进口关税。</p>
</body></html>
EOF

cat > en-warehouse-operations.html <<EOF
<html><head><meta charset="utf-8"><title>Warehouse Operations Manual</title></head><body>
<h1>Receiving</h1>
<p>Inbound containers are unloaded at the Rotterdam warehouse between 07:00 and 15:00. Pallets are counted against
the advance shipping notice before they are put away.</p>
<h2>Damaged goods</h2>
<p>Photograph any damaged carton and note the damage on the delivery receipt before signing it. Report the damage to
the cargo insurer within seven days.</p>
<h2>Quarantine</h2>
<p>Goods that arrive without a certificate of conformity stay in the quarantine cage until the quality department
releases them.</p>
<h1>Dispatch</h1>
<p>Orders picked before 14:00 leave the warehouse on the same working day. Each parcel gets a carrier label and a
packing list.</p>
<h2>Returns handling</h2>
<p>Returned parcels are accepted only with an RMA number. The warehouse inspects the goods within three working days
and sends the inspection report to finance, which issues the credit note.</p>
</body></html>
EOF

cat > ru-tamozhennye-platezhi.html <<EOF
<html><head><meta charset="utf-8"><title>Таможенные платежи</title></head><body>
<h1>Таможенные платежи</h1>
<p>Таможенные платежи уплачиваются до выпуска товаров для внутреннего потребления. Отдел финансов заранее
пополняет единый лицевой счёт, чтобы таможня могла списать платежи сразу после регистрации декларации.</p>
<h2>Ставки ввозной таможенной пошлины</h2>
<p>Ставка ввозной таможенной пошлины определяется по коду товара в Едином таможенном тарифе ЕАЭС. Для бытовой
электроники ставка обычно составляет от 0 до 10 процентов таможенной стоимости.</p>
<h2>НДС и таможенный сбор</h2>
<p>Ввозной НДС составляет 20 процентов и начисляется на сумму таможенной стоимости и пошлины. Таможенный сбор за
таможенные операции зависит от таможенной стоимости партии.</p>
<h2>Возврат излишне уплаченных платежей</h2>
<p>Если таможенная стоимость была завышена или товар вывезен в режиме реэкспорта, компания подаёт в таможню
заявление о возврате. Решение принимается в течение месяца.</p>
</body></html>
EOF

mkdir -p out
convert pdf:writer_pdf_Export en-product-safety.html
convert pdf:writer_pdf_Export zh-haiguan-shenbao.html
convert 'docx:MS Word 2007 XML' en-warehouse-operations.html
convert 'docx:MS Word 2007 XML' ru-tamozhennye-platezhi.html
cp out/en-product-safety.pdf out/zh-haiguan-shenbao.pdf out/en-warehouse-operations.docx out/ru-tamozhennye-platezhi.docx "$kb/"
ls -l "$kb"

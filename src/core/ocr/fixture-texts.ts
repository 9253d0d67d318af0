/**
 * Known text for the OCR fixtures and benchmark: three pages each in English, Russian and Chinese (Simplified),
 * written for this project. Each page names a phrase that occurs on it and on no other page (in its first
 * paragraph after the title, so short fixtures carry it too), for the search-hit measurement.
 */
export interface FixturePageText {
  /** Tesseract code of the language. */
  lang: 'eng' | 'rus' | 'chi_sim';
  /** Paragraphs; the renderer wraps them to the page width. */
  paragraphs: string[];
  /** A phrase found on this page only. */
  phrase: string;
}

export const FIXTURE_PAGES: readonly FixturePageText[] = [
  {
    lang: 'eng',
    phrase: 'cold storage warehouse',
    paragraphs: [
      'Quarterly Operations Review',
      'The cold storage warehouse in Tilbury handled forty-two thousand pallets between April and June, nine percent more than in the same quarter last year. Most of the growth came from frozen vegetables and pharmaceutical samples that need a steady temperature below minus eighteen degrees.',
      'Two refrigeration units failed during the heat wave in late June. The maintenance team replaced the compressors within thirty hours, and no goods were lost, but the insurer asked for a written report on the alarm chain and the backup generator tests.',
      'Staff turnover fell to eleven percent after the new shift pattern was introduced. Night shifts now rotate every two weeks instead of every month, and the break room was moved closer to the loading bays.',
    ],
  },
  {
    lang: 'eng',
    phrase: 'customs bonded area',
    paragraphs: [
      'Import Procedures',
      'Containers that arrive without a complete set of documents are moved to the customs bonded area and held there until the broker submits the missing certificate of origin. Storage in the bonded area is charged per day from the second day onwards.',
      'Each inspection is booked through the port community system. The inspector may open up to three cartons per container; if the declared weight differs from the measured weight by more than five percent, the whole container is unloaded and counted.',
      'Duty and value added tax are paid through the deferment account of the importer. The account is checked every morning, and a shipment is released only when the balance covers the amount assessed.',
    ],
  },
  {
    lang: 'eng',
    phrase: 'annual safety audit',
    paragraphs: [
      'Health and Safety Notes',
      'The annual safety audit found that forklift drivers followed the speed limits in the aisles, but pedestrians often crossed outside the marked walkways. Yellow barriers will be installed at the three busiest crossings before the end of September.',
      'First aid kits were complete in every zone except the mezzanine, where the eye wash bottles had expired. The site manager ordered replacements and added the kits to the monthly checklist.',
      'Fire drills are held twice a year. The last drill cleared the building in four minutes and twenty seconds, which is within the target set by the local fire brigade.',
    ],
  },
  {
    lang: 'rus',
    phrase: 'складской комплекс',
    paragraphs: [
      'Отчёт о работе склада',
      'Складской комплекс в Подольске за третий квартал принял сорок две тысячи паллет, что на девять процентов больше, чем годом ранее. Основной рост дали замороженные овощи и медицинские образцы, которым нужна постоянная температура ниже минус восемнадцати градусов.',
      'Во время жары в конце июля вышли из строя две холодильные установки. Бригада обслуживания заменила компрессоры за тридцать часов, товар не пострадал, однако страховая компания запросила письменный отчёт о проверке резервного генератора.',
      'Текучесть кадров снизилась до одиннадцати процентов после перехода на новый график. Ночные смены теперь меняются каждые две недели, а комната отдыха перенесена ближе к погрузочным воротам.',
    ],
  },
  {
    lang: 'rus',
    phrase: 'таможенный брокер',
    paragraphs: [
      'Порядок ввоза товаров',
      'Контейнеры, прибывшие без полного комплекта документов, перемещаются на склад временного хранения, пока таможенный брокер не представит недостающий сертификат происхождения. Хранение оплачивается посуточно начиная со второго дня.',
      'Каждый досмотр назначается через портовую информационную систему. Инспектор может вскрыть до трёх коробок в контейнере; если заявленный вес отличается от фактического более чем на пять процентов, контейнер разгружают полностью.',
      'Пошлина и налог на добавленную стоимость уплачиваются с лицевого счёта импортёра. Баланс проверяется каждое утро, и партия выпускается только тогда, когда средств хватает на всю начисленную сумму.',
    ],
  },
  {
    lang: 'rus',
    phrase: 'водители погрузчиков',
    paragraphs: [
      'Охрана труда',
      'Ежегодная проверка показала, что водители погрузчиков соблюдают ограничение скорости в проходах, но пешеходы часто пересекают зону вне размеченных дорожек. До конца сентября на трёх самых загруженных переходах установят жёлтые ограждения.',
      'Аптечки укомплектованы во всех зонах, кроме антресоли, где истёк срок годности растворов для промывания глаз. Начальник площадки заказал замену и включил аптечки в ежемесячный контрольный список.',
      'Учебная пожарная тревога проводится два раза в год. В последний раз здание освободили за четыре минуты двадцать секунд, что укладывается в норматив местной пожарной части.',
    ],
  },
  {
    lang: 'chi_sim',
    phrase: '冷藏仓库',
    paragraphs: [
      '季度运营报告',
      '位于天津的冷藏仓库在第二季度共处理了四万二千个托盘，比去年同期增长百分之九。增长主要来自速冻蔬菜和医药样品，这些货物需要保持在零下十八度以下的稳定温度。',
      '六月底高温期间，两台制冷机组发生故障。维修团队在三十个小时内更换了压缩机，货物没有损失，但保险公司要求提交关于报警流程和备用发电机测试的书面报告。',
      '新的排班制度实施后，员工流失率下降到百分之十一。夜班现在每两周轮换一次，休息室也搬到了离装卸区更近的位置。',
    ],
  },
  {
    lang: 'chi_sim',
    phrase: '报关行',
    paragraphs: [
      '进口流程说明',
      '单证不全的集装箱将被移入海关监管区，直到报关行补交原产地证书为止。监管区的仓储费用从第二天起按日计算。',
      '每次查验都通过港口信息系统预约。查验人员每个集装箱最多可以开箱三件；如果申报重量与实际称重相差超过百分之五，整个集装箱都要卸货清点。',
      '关税和增值税通过进口商的延期付款账户缴纳。账户余额每天早上核对一次，只有余额足以支付核定税款时，货物才会放行。',
    ],
  },
  {
    lang: 'chi_sim',
    phrase: '叉车司机',
    paragraphs: [
      '安全生产记录',
      '年度安全检查发现，叉车司机在通道内遵守了限速规定，但行人经常在划定的人行通道以外穿行。九月底之前将在三个最繁忙的路口安装黄色护栏。',
      '除夹层外，各区域的急救箱都已配齐，夹层的洗眼液已经过期。现场经理订购了替换品，并把急救箱列入每月检查清单。',
      '消防演习每年举行两次。上一次演习中全体人员在四分二十秒内撤离大楼，符合当地消防部门规定的标准。',
    ],
  },
];

export function fixturePages(lang?: FixturePageText['lang']): FixturePageText[] {
  return FIXTURE_PAGES.filter((p) => !lang || p.lang === lang);
}

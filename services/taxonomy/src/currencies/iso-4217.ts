/**
 * ISO 4217 List One (current currency and funds codes) as of 2025, alphabetical: national currencies,
 * fund codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW) and the X codes (precious metals, SDR,
 * supranational units, XTS testing, XXX no currency). Withdrawn codes are not here (HRK → EUR 2023,
 * SLL → SLE, ZWL → ZWG 2024, ANG → XCG 2025, CUC, VEF, MRO, STD, …); addCurrency registers any other
 * 3-letter code. Seeded by a migration: change only together with a new migration.
 */
export const ISO_4217_CODES: readonly string[] = `
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP
GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW
KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN
NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD
SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW
UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER
ZAR ZMW ZWG
`
  .split(/\s+/)
  .filter(Boolean);
